package provenance

import "strings"

// Some kinds have no attribute map, only a description-style text field. There the marker is
// appended as one last line wrapped in textPrefix and textSuffix, and the rest of the text is
// what the user's spec manages.
const (
	textPrefix = "[provider-identity: "
	textSuffix = "]"
)

// EmbedInText returns text with m appended on a line of its own, replacing any marker that
// text already carried.
func EmbedInText(text string, m Marker) string {
	rest, _, _, _ := ExtractFromText(text)
	line := textPrefix + m.Encode() + textSuffix
	if rest == "" {
		return line
	}
	return rest + "\n" + line
}

// ExtractFromText splits text into the user's part and the marker on its last line. found is
// false when the last line is not a marker; err is set when it looks like one but cannot be
// read (the object is then treated as unmarked by callers that choose to).
func ExtractFromText(text string) (rest string, m Marker, found bool, err error) {
	i := strings.LastIndex(text, textPrefix)
	if i < 0 || !strings.HasSuffix(text, textSuffix) || strings.Contains(text[i:], "\n") {
		return text, Marker{}, false, nil
	}
	m, err = Parse(strings.TrimSuffix(text[i+len(textPrefix):], textSuffix))
	if err != nil {
		return text, Marker{}, false, err
	}
	return strings.TrimSuffix(text[:i], "\n"), m, true, nil
}
