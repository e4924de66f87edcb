package authentikapiserver

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// The store keeps every object as the JSON-shaped map of its writable fields
// plus "pk". Schemas are enforced by the openapi validator before a handler
// runs, so the store only has to model what the schema cannot say: defaults,
// uniqueness, relations and computed read-only fields.

type pkKind int

const (
	pkInt  pkKind = iota // providers, users: database sequence
	pkUUID               // applications, groups, flows, keypairs, mappings, roles
)

// field is one writable field of a kind.
type field struct {
	name string
	// def returns the value an object gets when a create omits the field
	// (the Django model default). nil means the field has no default.
	def func(st *state) any
	// ref names the reference group the value points into ("flow",
	// "provider", ...); many means a list of references.
	ref  string
	many bool
	// ints marks integer references (providers, users), so JSON numbers are
	// stored as int64 and compare equal to pks.
	ints bool
	// cascade deletes the referring object when its target is deleted
	// (on_delete=CASCADE); otherwise a single reference is set to null.
	cascade bool
	// virtual fields are validated but stored elsewhere (a group's "users"
	// is the users' membership list), so they are not kept on the object.
	virtual bool
}

// unique is a uniqueness rule checked across a reference group (Provider.name
// spans every provider type because the column lives on the base table).
type unique struct {
	field string
	group string
	msg   string
}

type kind struct {
	path  string // "core/applications": URL path and the seed/raw kind name
	op    string // operationId prefix, e.g. "core_applications"
	model string // Django model class name, used in 404 bodies
	group string // reference group the kind belongs to
	// alsoIn are further reference groups the kind's objects are found in
	// (applications are policy binding models too).
	alsoIn []string
	lookup string // object field the URL's {id} matches ("pk" or "slug")
	pk     pkKind
	fields []field
	unique []unique
	// ordering is the viewset's default ordering field.
	ordering string
	search   []string
	filters  map[string]filter
	// options are query parameters that shape the rendering (include_users)
	// rather than select objects.
	options  []string
	render   func(rc *renderCtx, d map[string]any) map[string]any
	validate func(wc *writeCtx, errs fieldErrors)
	prepare  func(wc *writeCtx)
	after    func(wc *writeCtx)
	// removed, when set, deletes what the object's deletion takes along
	// besides the references to it (an application's backchannel providers,
	// whose foreign key lives on the provider).
	removed func(st *state, d map[string]any)
}

// in reports whether the kind's objects are found in a reference group.
func (k *kind) in(group string) bool {
	return k.group == group || containsStr(k.alsoIn, group)
}

func (k *kind) field(name string) *field {
	for i := range k.fields {
		if k.fields[i].name == name {
			return &k.fields[i]
		}
	}
	return nil
}

type row struct {
	seq  int64
	data map[string]any
}

type table struct {
	k    *kind
	rows []*row
}

// state is the whole in-memory authentik. It is guarded by Server.mu.
type state struct {
	kinds  []*kind
	tables map[string]*table   // by kind path
	groups map[string][]*table // by reference group
	seq    map[string]int64
	// passwords set through set_password; kept out of the objects because
	// authentik never returns them.
	passwords map[int64]string
}

func newState(kinds []*kind) *state {
	st := &state{tables: map[string]*table{}, groups: map[string][]*table{}, seq: map[string]int64{}, passwords: map[int64]string{}}
	st.kinds = kinds
	for _, k := range kinds {
		t := &table{k: k}
		st.tables[k.path] = t
		for _, g := range append([]string{k.group}, k.alsoIn...) {
			st.groups[g] = append(st.groups[g], t)
		}
	}
	return st
}

func (st *state) next(name string) int64 {
	st.seq[name]++
	return st.seq[name]
}

// find returns the object with the given pk in a reference group.
func (st *state) find(group string, pk any) (*table, *row) {
	key := keyOf(pk)
	for _, t := range st.groups[group] {
		for _, r := range t.rows {
			if keyOf(r.data["pk"]) == key {
				return t, r
			}
		}
	}
	return nil, nil
}

// lookup finds an object of one kind by the field its URL uses.
func (st *state) lookup(k *kind, id string) *row {
	for _, r := range st.tables[k.path].rows {
		if keyOf(r.data[k.lookup]) == id {
			return r
		}
	}
	return nil
}

func (st *state) rowsOf(group string) []*row {
	var out []*row
	for _, t := range st.groups[group] {
		out = append(out, t.rows...)
	}
	return out
}

// remove deletes an object and applies the on_delete behaviour of every
// reference pointing at it, recursively for cascades.
func (st *state) remove(k *kind, r *row) {
	t := st.tables[k.path]
	for i, x := range t.rows {
		if x == r {
			t.rows = append(t.rows[:i], t.rows[i+1:]...)
			break
		}
	}
	if k.removed != nil {
		k.removed(st, r.data)
	}
	pk := keyOf(r.data["pk"])
	for _, ot := range st.tables {
		for _, f := range ot.k.fields {
			if !k.in(f.ref) || f.virtual {
				continue
			}
			for _, orow := range append([]*row(nil), ot.rows...) {
				v := orow.data[f.name]
				if f.many {
					list, _ := v.([]any)
					kept := make([]any, 0, len(list))
					for _, item := range list {
						if keyOf(item) != pk {
							kept = append(kept, item)
						}
					}
					orow.data[f.name] = kept
					continue
				}
				if v == nil || keyOf(v) != pk {
					continue
				}
				if f.cascade {
					st.remove(ot.k, orow)
				} else {
					orow.data[f.name] = nil
				}
			}
		}
	}
}

// keyOf turns any pk-ish value into a comparable string.
func keyOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case json.Number:
		i, err := x.Int64()
		return i, err == nil
	case float64:
		return int64(x), x == float64(int64(x))
	case string:
		i, err := strconv.ParseInt(x, 10, 64)
		return i, err == nil
	}
	return 0, false
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// randomString mirrors authentik's generate_id/generate_key: letters and
// digits from a CSPRNG.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return string(b)
}

// now renders times the way Django REST framework does (UTC, microseconds).
func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000000Z") }

// Default helpers for field.def.
func defStr(s string) func(*state) any { return func(*state) any { return s } }
func defBool(b bool) func(*state) any  { return func(*state) any { return b } }
func defNil() func(*state) any         { return func(*state) any { return nil } }
func defList() func(*state) any        { return func(*state) any { return []any{} } }
func defMap() func(*state) any         { return func(*state) any { return map[string]any{} } }

// clone deep-copies JSON-shaped values so stored objects never alias request
// bodies or rendered responses.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, vv := range x {
			m[k] = clone(vv)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, vv := range x {
			l[i] = clone(vv)
		}
		return l
	default:
		return v
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func boolean(v any) bool {
	b, _ := v.(bool)
	return b
}

func contains(l []any, v any) bool {
	key := keyOf(v)
	for _, x := range l {
		if keyOf(x) == key {
			return true
		}
	}
	return false
}
