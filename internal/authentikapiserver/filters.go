package authentikapiserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// filter decides whether a rendered object matches one query parameter (all
// its values). Filters run on the rendered object so computed fields work.
type filter func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors)

// exact is django-filter's default lookup: the rendered value equals the
// parameter (booleans as "true"/"false", numbers in decimal).
func exact(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		return scalarString(obj[field]) == vals[0], nil
	}
}

func iexact(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		return strings.EqualFold(scalarString(obj[field]), vals[0]), nil
	}
}

// boolean filters accept Django's spellings of true and false.
func boolFilter(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		want := strings.EqualFold(vals[0], "true") || vals[0] == "1"
		return boolean(obj[field]) == want, nil
	}
}

// anyOf matches when the field equals one of the values (MultipleChoiceFilter,
// or a repeated ?managed=).
func anyOf(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		v := scalarString(obj[field])
		for _, want := range vals {
			if v == want {
				return true, nil
			}
		}
		return false, nil
	}
}

// isNull is a "<field>__isnull" filter.
func isNull(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		want := strings.EqualFold(vals[0], "true")
		return (obj[field] == nil) == want, nil
	}
}

// listHasAny matches when a list field shares at least one value with the
// parameter's values (ModelMultipleChoiceFilter over a relation).
func listHasAny(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		for _, item := range list(obj[field]) {
			for _, want := range vals {
				if keyOf(item) == want {
					return true, nil
				}
			}
		}
		return false, nil
	}
}

// attributesFilter is authentik's filter_attributes: the value is a JSON
// object and each key is a Django JSON lookup path ("a__b" walks into nested
// objects) whose value must equal the given one.
func attributesFilter(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		var want any
		if err := json.Unmarshal([]byte(vals[0]), &want); err != nil {
			// authentik raises ValidationError(detail=...), which DRF renders
			// as a bare JSON list; the schema only allows an object, so the
			// message goes under non_field_errors instead.
			return false, fieldErrors{"non_field_errors": {"filter: failed to parse JSON"}}
		}
		m, ok := want.(map[string]any)
		if !ok {
			return false, fieldErrors{"non_field_errors": {"filter: value must be key:value mapping"}}
		}
		attrs, _ := jsonRoundTrip(obj[field]).(map[string]any)
		for key, v := range m {
			var cur any = attrs
			for _, part := range strings.Split(key, "__") {
				mm, ok := cur.(map[string]any)
				if !ok {
					return false, nil
				}
				if cur, ok = mm[part]; !ok {
					return false, nil
				}
			}
			if !reflect.DeepEqual(cur, v) {
				return false, nil
			}
		}
		return true, nil
	}
}

// jsonRoundTrip turns json.Number leaves into float64 so values compare
// with freshly decoded filter values.
func jsonRoundTrip(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// matchSearch is DRF's SearchFilter: every whitespace-separated term must be
// contained (case-insensitively) in at least one of the search fields. A
// field "a__b" is b of the rendered object's a (user_obj__username stands for
// authentik's user__username).
func matchSearch(obj map[string]any, fields []string, q string) bool {
	for _, term := range strings.Fields(q) {
		found := false
		for _, f := range fields {
			if strings.Contains(strings.ToLower(scalarString(pathValue(obj, f))), strings.ToLower(term)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// pathValue walks "a__b" into nested objects; a missing step is nil.
func pathValue(obj map[string]any, path string) any {
	var cur any = obj
	for _, part := range strings.Split(path, "__") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		if x {
			return "true"
		}
		return "false"
	default:
		return keyOf(x)
	}
}

// sortObjects applies a DRF ordering string ("name", "-pk", "a,b"). Fields
// that objects do not have are ignored, as OrderingFilter drops them. The sort
// is stable so ties keep insertion order.
func sortObjects(objs []map[string]any, ordering string) {
	terms := strings.Split(ordering, ",")
	sort.SliceStable(objs, func(i, j int) bool {
		for _, t := range terms {
			t = strings.TrimSpace(t)
			desc := strings.HasPrefix(t, "-")
			t = strings.TrimPrefix(t, "-")
			if t == "" {
				continue
			}
			c := compareValues(objs[i][t], objs[j][t])
			if c == 0 {
				continue
			}
			if desc {
				return c > 0
			}
			return c < 0
		}
		return false
	})
}

func compareValues(a, b any) int {
	if ai, ok := toInt(a); ok {
		if bi, ok := toInt(b); ok {
			switch {
			case ai < bi:
				return -1
			case ai > bi:
				return 1
			}
			return 0
		}
	}
	return strings.Compare(fmt.Sprint(scalarString(a)), fmt.Sprint(scalarString(b)))
}
