// A text control's look: app/globals.css (.field-input), once, rather than on every control. Its
// own file, as button-styles.ts: a client module importing it takes no component with it
// (docs/decisions/0034-page-javascript.md).
export const inputClass = "field-input";
