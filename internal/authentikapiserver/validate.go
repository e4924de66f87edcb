package authentikapiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

func (s *Server) schemaOptions() []openapi3.SchemaValidationOption {
	return []openapi3.SchemaValidationOption{openapi3.WithStringFormatValidators(formatValidators())}
}

func (s *Server) requestOptions() *openapi3filter.Options {
	return &openapi3filter.Options{
		// Authentication is checked by Server.authenticate, like authentik
		// does before it looks at the body.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		MultiError:         true,
		// Defaults are the store's business (model defaults differ from the
		// few the document declares); the body must stay as the client sent it.
		SkipSettingDefaults:     true,
		SchemaValidationOptions: s.schemaOptions(),
	}
}

func (s *Server) responseOptions() *openapi3filter.Options {
	return &openapi3filter.Options{
		MultiError: true,
		// authentik answers statuses its document does not list (404 from
		// get_object_or_404 on every detail route); only listed ones are checked.
		IncludeResponseStatus:   false,
		SchemaValidationOptions: s.schemaOptions(),
	}
}

// validateRequest checks the request against the document and, beyond what
// the schema enforces, rejects body fields the schema does not declare: DRF
// would silently drop them, which hides client typos and read-only fields sent
// by mistake. Returns nil when the request is fine.
func (s *Server) validateRequest(ctx context.Context, in *openapi3filter.RequestValidationInput, raw []byte) *reply {
	err := openapi3filter.ValidateRequest(ctx, in)
	errs := fieldErrors{}
	if err != nil {
		collectErrors(err, errs)
	} else if unknown := unknownBodyFields(in, raw); len(unknown) > 0 {
		for _, u := range unknown {
			errs.add(u.field, "authentikapiserver: field %q is not in the openapi schema %s (authentik would silently ignore it)", u.path, u.schema)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msg := summarizeFields(errs)
	s.violate(Violation{
		Kind: KindRequest, Method: in.Request.Method, Path: in.Request.URL.RequestURI(),
		Operation: in.Route.Operation.OperationID, Message: msg, Body: truncate(string(raw)),
	})
	errs["non_field_errors"] = append(errs["non_field_errors"], "authentikapiserver: request rejected by authentik's openapi document: "+msg)
	body := errs.body()
	body["code"] = "openapi_schema_violation"
	rep := jsonReply(http.StatusBadRequest, body)
	return &rep
}

// collectErrors turns kin-openapi's errors into DRF-like field errors so the
// client sees which field was wrong, with the schema's reason.
func collectErrors(err error, errs fieldErrors) {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			collectErrors(e, errs)
		}
		return
	}
	var re *openapi3filter.RequestError
	if errors.As(err, &re) {
		if re.Parameter != nil {
			errs.add(re.Parameter.Name, "%s parameter: %s", re.Parameter.In, innermost(re))
			return
		}
		if re.Err != nil {
			var inner openapi3.MultiError
			if errors.As(re.Err, &inner) {
				for _, e := range inner {
					collectErrors(e, errs)
				}
				return
			}
			var se *openapi3.SchemaError
			if errors.As(re.Err, &se) {
				collectErrors(se, errs)
				return
			}
		}
		errs.add("non_field_errors", "%s", re.Error())
		return
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		ptr := se.JSONPointer()
		field := "non_field_errors"
		if len(ptr) > 0 {
			field = ptr[0]
		}
		errs.add(field, "%s (at /%s)", se.Reason, strings.Join(ptr, "/"))
		return
	}
	errs.add("non_field_errors", "%s", err.Error())
}

func innermost(re *openapi3filter.RequestError) string {
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return se.Reason
	}
	if re.Err != nil {
		return re.Err.Error()
	}
	return re.Reason
}

func summarizeFields(errs fieldErrors) string {
	parts := make([]string, 0, len(errs))
	for _, k := range sortedKeys(errs) {
		parts = append(parts, k+": "+strings.Join(errs[k], "; "))
	}
	return strings.Join(parts, " | ")
}

// summarize shortens kin-openapi's response errors (which embed whole schemas).
func summarize(err error) string {
	errs := fieldErrors{}
	var me openapi3.MultiError
	var re *openapi3filter.ResponseError
	switch {
	case errors.As(err, &re) && re.Err != nil:
		collectErrors(re.Err, errs)
	case errors.As(err, &me):
		collectErrors(me, errs)
	default:
		return err.Error()
	}
	return summarizeFields(errs)
}

type unknownField struct{ field, path, schema string }

func unknownBodyFields(in *openapi3filter.RequestValidationInput, raw []byte) []unknownField {
	rb := in.Route.Operation.RequestBody
	if rb == nil || rb.Value == nil || len(raw) == 0 {
		return nil
	}
	mt := rb.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []unknownField
	walkUnknown(mt.Schema, v, nil, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func walkUnknown(ref *openapi3.SchemaRef, v any, path []string, out *[]unknownField) {
	if ref == nil || ref.Value == nil {
		return
	}
	s := ref.Value
	switch val := v.(type) {
	case map[string]any:
		props, open := objectProps(s)
		if props == nil && open {
			return
		}
		for k, sub := range val {
			p := append(append([]string(nil), path...), k)
			if ps, ok := props[k]; ok {
				walkUnknown(ps, sub, p, out)
			} else if !open {
				field := p[0]
				*out = append(*out, unknownField{field: field, path: strings.Join(p, "."), schema: schemaName(ref)})
			}
		}
	case []any:
		if s.Items != nil {
			for i, item := range val {
				walkUnknown(s.Items, item, append(append([]string(nil), path...), fmt.Sprint(i)), out)
			}
		}
	}
}

// objectProps merges the properties of a schema and its allOf parts; open
// means additional properties are allowed.
func objectProps(s *openapi3.Schema) (map[string]*openapi3.SchemaRef, bool) {
	props := map[string]*openapi3.SchemaRef{}
	open := s.AdditionalProperties.Schema != nil || (s.AdditionalProperties.Has != nil && *s.AdditionalProperties.Has)
	isObject := len(s.Properties) > 0 || (s.Type != nil && s.Type.Is("object"))
	for k, v := range s.Properties {
		props[k] = v
	}
	for _, part := range s.AllOf {
		if part.Value == nil {
			continue
		}
		pp, po := objectProps(part.Value)
		if pp != nil {
			isObject = true
			for k, v := range pp {
				props[k] = v
			}
		}
		open = open || po
	}
	if !isObject {
		return nil, true
	}
	return props, open
}

func schemaName(ref *openapi3.SchemaRef) string {
	if ref.Ref != "" {
		return ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
	}
	return "(inline)"
}
