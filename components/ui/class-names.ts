// Joins the class names a primitive was given, leaving out the ones a condition turned off.
// Plain joining, no conflict resolution: a primitive's variants never set the same property twice.
export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
