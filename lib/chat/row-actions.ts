// Whether two sets of a row's actions offer the same thing, so the list can hand a row the
// object it already has and the row's memoized view skips rendering (every scroll frame renders
// the list again). Handlers are the same only when they are the same function; a value object
// (a reply's run timeline target) is the same when its fields are.

/** Same keys, and `same` holds for each key's two values. */
function sameFields(a: object, b: object, same: (x: unknown, y: unknown) => boolean): boolean {
  const aFields = Object.entries(a);
  if (aFields.length !== Object.keys(b).length) return false;
  const bFields = new Map(Object.entries(b));
  return aFields.every(([key, value]) => bFields.has(key) && same(value, bFields.get(key)));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return false;
  return sameFields(a, b, (x, y) => x === y);
}

export function sameRowActions(a: object, b: object): boolean {
  return sameFields(a, b, sameValue);
}
