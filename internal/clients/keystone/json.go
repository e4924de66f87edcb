package keystone

import (
	"encoding/json"
	"strconv"
)

// jsonRaw defers decoding of one field of a Keystone answer.
type jsonRaw json.RawMessage

func (r *jsonRaw) UnmarshalJSON(b []byte) error {
	*r = append((*r)[0:0], b...)
	return nil
}

func (r jsonRaw) decode(v any) error {
	if len(r) == 0 {
		return nil
	}
	return json.Unmarshal(r, v)
}

// keystoneMessage extracts error.message from Keystone's error document.
func keystoneMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	if len(body) > 200 {
		return string(body[:200]) + "..."
	}
	return string(body)
}

func itoa(i int) string { return strconv.Itoa(i) }
