package keystone

import (
	"context"
	"net/url"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// assignmentFilters is Keystone's role_assignments filter for each word of an assignment's key.
var assignmentFilters = map[string]string{
	"project": "scope.project.id",
	"domain":  "scope.domain.id",
	"user":    "user.id",
	"group":   "group.id",
	"role":    "role.id",
}

const errAssignmentWord = "cannot ask which role assignments a delete takes with a %q: not one of project, domain, user, group or role"

// assignmentRowsPerRead is how many rows of a list of all role assignments (without names)
// cost Keystone what one filtered read costs: under the same load a list of 500 took 32.8 ms
// and a filtered read of a project's or group's assignments 6.9-10.7 ms (make bench-scale
// N=500), so a row costs about 0.05 ms and a read that of some 140 rows.
const assignmentRowsPerRead = 100

// deletionAssignments joins the questions of deletions asking at once which role assignments
// Keystone would delete with their objects: one list of all assignments, read after all of them
// asked, answers each (clients.JoinedLists).
var deletionAssignments = clients.JoinedLists[deletionAssignment]{RowsPerRead: assignmentRowsPerRead}

// deletionAssignment is a row of a deletion's question; named tells a row read with names (a
// read alone) from one of the joined list, which is read without them (rows cost less).
type deletionAssignment struct {
	adoption.Dependent
	named bool
}

// AssignmentsDeletedWith lists the direct role assignments that Keystone deletes with the
// object of word (project, domain, user, group or role) with ID id, as Assignments does, by a
// read that starts after the call. Deletions asking while another's read is under way share
// one list of all assignments; when it shows some for the object, the object's own list is read
// for the names the resource's condition shows.
func AssignmentsDeletedWith(ctx context.Context, sc API, word, id string) ([]adoption.Dependent, error) {
	key, ok := assignmentFilters[word]
	if !ok {
		// Without a filter the read would be of every assignment in Keystone.
		return nil, errors.Errorf(errAssignmentWord, word)
	}
	filter := url.Values{key: {id}}
	if !Joinable(sc) {
		return Assignments(ctx, sc, filter)
	}
	rows, err := deletionAssignments.Rows(ctx, clients.Scope{Client: sc, List: sc.ServiceURL("role_assignments")}, word+"/"+id, clients.Rows[deletionAssignment]{
		Alone: func(ctx context.Context) ([]deletionAssignment, error) {
			ds, err := Assignments(ctx, sc, filter)
			out := make([]deletionAssignment, 0, len(ds))
			for _, d := range ds {
				out = append(out, deletionAssignment{Dependent: d, named: true})
			}
			return out, err
		},
		List: func(ctx context.Context) ([]deletionAssignment, error) {
			// A list cut short fails (IsTruncated): a missing row must not pass for no row.
			as, err := roleAssignments.List(ctx, sc, nil)
			if err != nil {
				return nil, err
			}
			out := make([]deletionAssignment, 0, len(as))
			for _, a := range as {
				out = append(out, deletionAssignment{Dependent: a.dependent()})
			}
			return out, nil
		},
		Keys:    assignmentWords,
		Refused: listRefused,
	})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	if !rows[0].named {
		return Assignments(ctx, sc, filter)
	}
	out := make([]adoption.Dependent, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.Dependent)
	}
	return out, nil
}

// assignmentWords names the objects an assignment hangs on, as word/ID, from its key
// (AssignmentKey): its target, its actor and its role.
func assignmentWords(a deletionAssignment) []string {
	p := strings.Split(a.ID, "/")
	if len(p) < 6 {
		return nil
	}
	return []string{p[0] + "/" + p[1], p[2] + "/" + p[3], p[4] + "/" + p[5]}
}
