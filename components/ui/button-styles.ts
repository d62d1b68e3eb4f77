// Shared class names, so buttons and links that look like buttons stay consistent. Their rules are
// in app/globals.css (.btn and its variants, in the components layer): written once there rather than
// on every button of every page, and a utility beside them (`py-1.5`, `mt-8`) always wins.
export const buttonClass = {
  primary: "btn btn-primary",
  secondary: "btn btn-secondary",
  danger: "btn btn-danger",
  ghost: "btn btn-ghost",
};
