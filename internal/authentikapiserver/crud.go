package authentikapiserver

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
)

// renderCtx carries what a serializer needs beyond the object: the other
// objects (for *_obj fields), the request's query (include_* options) and the
// absolute base URL (for computed URLs).
type renderCtx struct {
	st   *state
	q    url.Values
	base string
}

func (rc *renderCtx) render(k *kind, d map[string]any) map[string]any {
	return k.render(rc, d)
}

// writeCtx is one create or update in progress.
type writeCtx struct {
	st      *state
	k       *kind
	body    map[string]any // the fields the client sent
	old     map[string]any // nil on create
	data    map[string]any // what will be stored
	base    string
	seeding bool
}

func (wc *writeCtx) creating() bool { return wc.old == nil }

// sent reports whether the client sent the field in this request.
func (wc *writeCtx) sent(name string) bool {
	_, ok := wc.body[name]
	return ok
}

// genericOps registers list/create/retrieve/update/partial_update/destroy for
// a kind, named after the operationIds in authentik's openapi document.
func genericOps(k *kind, ops map[string]handler) {
	ops[k.op+"_list"] = func(c *call) reply { return listKinds(c, k.ordering, k.search, k.filters, k.options, []*kind{k}) }
	ops[k.op+"_create"] = func(c *call) reply { return create(c, k) }
	ops[k.op+"_retrieve"] = func(c *call) reply { return retrieve(c, k) }
	ops[k.op+"_update"] = func(c *call) reply { return update(c, k) }
	ops[k.op+"_partial_update"] = func(c *call) reply { return update(c, k) }
	ops[k.op+"_destroy"] = func(c *call) reply { return destroy(c, k) }
}

func (c *call) id() string {
	// Every detail route in the document has exactly one path parameter.
	for _, v := range c.params {
		return v
	}
	return ""
}

func retrieve(c *call, k *kind) reply {
	r := c.st.lookup(k, c.id())
	if r == nil {
		return notFound(k.model)
	}
	return jsonReply(http.StatusOK, c.rc().render(k, r.data))
}

func create(c *call, k *kind) reply {
	d, errs := write(c.st, k, c.body, nil, c.base, false)
	if errs != nil {
		return badRequest(errs)
	}
	return jsonReply(http.StatusCreated, c.rc().render(k, d))
}

// update serves PUT and PATCH alike: DRF only touches the fields a request
// carries either way (PUT differs only in requiring the required fields,
// which the schema validator already enforced).
func update(c *call, k *kind) reply {
	r := c.st.lookup(k, c.id())
	if r == nil {
		return notFound(k.model)
	}
	d, errs := write(c.st, k, c.body, r, c.base, false)
	if errs != nil {
		return badRequest(errs)
	}
	return jsonReply(http.StatusOK, c.rc().render(k, d))
}

func destroy(c *call, k *kind) reply {
	r := c.st.lookup(k, c.id())
	if r == nil {
		return notFound(k.model)
	}
	c.st.remove(k, r)
	return noContent()
}

// write validates and stores a create (existing == nil) or an update. It
// returns DRF-style field errors instead of storing when validation fails.
func write(st *state, k *kind, body map[string]any, existing *row, base string, seeding bool) (map[string]any, fieldErrors) {
	wc := newWriteCtx(st, k, body, existing, base, seeding)
	errs := fieldErrors{}
	checkRefs(wc, errs)
	checkUnique(wc, errs)
	if len(errs) == 0 && k.validate != nil {
		k.validate(wc, errs)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if existing == nil {
		assignPK(wc)
	}
	if k.prepare != nil {
		k.prepare(wc)
	}
	if existing != nil {
		existing.data = wc.data
	} else {
		t := st.tables[k.path]
		t.rows = append(t.rows, &row{seq: st.next("_rows"), data: wc.data})
	}
	if k.after != nil {
		k.after(wc)
	}
	return wc.data, nil
}

// newWriteCtx is the object a write would store: the existing one (or the
// kind's defaults) with the body's declared fields over it.
func newWriteCtx(st *state, k *kind, body map[string]any, existing *row, base string, seeding bool) *writeCtx {
	wc := &writeCtx{st: st, k: k, body: body, base: base, seeding: seeding}
	if existing != nil {
		wc.old = existing.data
		wc.data = clone(existing.data).(map[string]any)
	} else {
		wc.data = map[string]any{}
		for _, f := range k.fields {
			if f.def != nil && !f.virtual {
				wc.data[f.name] = f.def(st)
			}
		}
	}
	for name, v := range body {
		f := k.field(name)
		if f == nil {
			if seeding && name == "pk" {
				wc.data["pk"] = normalizePK(k, v)
			}
			continue // DRF ignores fields a serializer does not declare
		}
		if f.virtual {
			continue
		}
		wc.data[name] = normalize(f, clone(v))
	}
	return wc
}

// assignPK gives a created object the next pk of its kind, or, for a seeded
// object that brought its own integer pk, moves the sequence past it.
func assignPK(wc *writeCtx) {
	st, k := wc.st, wc.k
	if _, ok := wc.data["pk"]; !ok {
		if k.pk == pkInt {
			wc.data["pk"] = st.next(k.group)
		} else {
			wc.data["pk"] = newUUID()
		}
	} else if n, ok := wc.data["pk"].(int64); ok && n > st.seq[k.group] {
		st.seq[k.group] = n
	}
}

func normalizePK(k *kind, v any) any {
	if k.pk == pkInt {
		if n, ok := toInt(v); ok {
			return n
		}
	}
	return keyOf(v)
}

// normalize stores integer references as int64 so they compare with pks.
func normalize(f *field, v any) any {
	if !f.ints {
		return v
	}
	if f.many {
		l := list(v)
		for i, item := range l {
			if n, ok := toInt(item); ok {
				l[i] = n
			}
		}
		return l
	}
	if n, ok := toInt(v); ok {
		return n
	}
	return v
}

// checkRefs reports references to objects that do not exist, with DRF's
// PrimaryKeyRelatedField wording.
func checkRefs(wc *writeCtx, errs fieldErrors) {
	for _, f := range wc.k.fields {
		if f.ref == "" || !wc.sent(f.name) {
			continue
		}
		v := wc.body[f.name]
		if f.many {
			for _, item := range list(v) {
				if _, r := wc.st.find(f.ref, item); r == nil {
					errs.add(f.name, msgInvalidPK, item)
					break
				}
			}
			continue
		}
		if v == nil {
			continue
		}
		if _, r := wc.st.find(f.ref, v); r == nil {
			errs.add(f.name, msgInvalidPK, v)
		}
	}
}

func checkUnique(wc *writeCtx, errs fieldErrors) {
	self := keyOf(wc.data["pk"])
	for _, u := range wc.k.unique {
		v := wc.data[u.field]
		if v == nil || (!wc.sent(u.field) && !wc.creating()) {
			continue
		}
		group := u.group
		if group == "" {
			group = wc.k.group
		}
		for _, r := range wc.st.rowsOf(group) {
			if wc.old != nil && keyOf(r.data["pk"]) == self {
				continue
			}
			if keyOf(r.data[u.field]) == keyOf(v) {
				errs.add(u.field, "%s", u.msg)
				break
			}
		}
	}
}

// listKinds serves a paginated list over one or more kinds (providers/all
// spans three). Query parameters the document declares but this server does
// not implement are refused loudly rather than silently ignored, because a
// silently ignored filter returns every object and hides provider bugs.
func listKinds(c *call, ordering string, search []string, filters map[string]filter, options []string, kinds []*kind) reply {
	if name, ok := unimplementedParam(c, search, filters, options); ok {
		return c.unimplemented("query parameter " + strconv.Quote(name) + " is not implemented by authentikapiserver")
	}
	rc := c.rc()
	type item struct {
		seq int64
		obj map[string]any
	}
	var items []item
	for _, k := range kinds {
		for _, r := range c.st.tables[k.path].rows {
			items = append(items, item{r.seq, rc.render(k, r.data)})
		}
	}
	objs := make([]map[string]any, 0, len(items))
	for _, it := range items {
		keep, err := matchQuery(c, rc, it.obj, search, filters)
		if err != nil {
			return badRequest(err)
		}
		if keep {
			objs = append(objs, it.obj)
		}
	}
	order := ordering
	if o := c.query.Get("ordering"); o != "" {
		order = o
	}
	sortObjects(objs, order)
	return paginate(c, objs)
}

// unimplementedParam is the first query parameter the document declares for
// the operation that the list does not implement.
func unimplementedParam(c *call, search []string, filters map[string]filter, options []string) (string, bool) {
	for name := range c.query {
		switch name {
		case "page", "page_size", "ordering":
			continue
		case "search":
			if search != nil {
				continue
			}
		}
		if _, ok := filters[name]; ok {
			continue
		}
		if containsStr(options, name) || !c.declaresParam(name) {
			continue
		}
		return name, true
	}
	return "", false
}

// matchQuery is whether a rendered object passes every filter of the query
// and its search.
func matchQuery(c *call, rc *renderCtx, obj map[string]any, search []string, filters map[string]filter) (bool, fieldErrors) {
	for name, vals := range c.query {
		f, ok := filters[name]
		if !ok || allEmpty(vals) {
			// django-filter skips a filter whose value is empty.
			continue
		}
		match, err := f(rc, obj, vals)
		if err != nil || !match {
			return false, err
		}
	}
	if c.query.Has("search") && search != nil {
		return matchSearch(obj, search, c.query.Get("search")), nil
	}
	return true, nil
}

// paginate mirrors authentik's Pagination (DRF PageNumberPagination with a
// default page size of 100): "next"/"previous" are 0 when there is none, an
// empty list still has one page, and an out-of-range page is a 404.
func paginate(c *call, objs []map[string]any) reply {
	size := 100
	if v, err := strconv.Atoi(c.query.Get("page_size")); err == nil && v > 0 {
		size = v
	}
	page := 1
	if p := c.query.Get("page"); p != "" {
		v, err := strconv.Atoi(p)
		if err != nil || v < 1 {
			return detail(http.StatusNotFound, msgInvalidPage)
		}
		page = v
	}
	count := len(objs)
	pages := (count + size - 1) / size
	if pages == 0 {
		pages = 1
	}
	if page > pages {
		return detail(http.StatusNotFound, msgInvalidPage)
	}
	start := (page - 1) * size
	end := min(start+size, count)
	results := make([]any, 0, end-start)
	for _, o := range objs[start:end] {
		results = append(results, o)
	}
	next, prev := 0, 0
	if page < pages {
		next = page + 1
	}
	if page > 1 {
		prev = page - 1
	}
	startIndex := 0
	if count > 0 {
		startIndex = start + 1
	}
	return jsonReply(http.StatusOK, map[string]any{
		"pagination": map[string]any{
			"next":        next,
			"previous":    prev,
			"count":       count,
			"current":     page,
			"total_pages": pages,
			"start_index": startIndex,
			"end_index":   end,
		},
		"results":      results,
		"autocomplete": map[string]any{},
	})
}

var errNotFound = errors.New("not found")

func allEmpty(vals []string) bool {
	for _, v := range vals {
		if v != "" {
			return false
		}
	}
	return true
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
