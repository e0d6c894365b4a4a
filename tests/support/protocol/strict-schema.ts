// OpenAI's rules for a strict JSON Schema (structured output and strict tools): every object lists
// every property in `required` and sets additionalProperties false, at every level. The first
// broken rule is answered in the words OpenAI's API uses.

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function contextOf(path: string[]): string {
  return `context=(${path.map((p) => `'${p}'`).join(", ")})`;
}

function check(node: unknown, path: string[]): string | null {
  if (!isNode(node)) return null;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("object") || isNode(node.properties)) {
    const properties = isNode(node.properties) ? Object.keys(node.properties) : [];
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = properties.filter((key) => !required.includes(key));
    if (missing.length > 0) {
      return (
        `In ${contextOf(path)}, 'required' is required to be supplied and to be an array ` +
        `including every key in properties. Missing '${missing[0]}'.`
      );
    }
    if (node.additionalProperties !== false) {
      return `In ${contextOf(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    }
  }
  const children: [string[], unknown][] = [];
  if (isNode(node.properties)) {
    for (const [key, child] of Object.entries(node.properties)) {
      children.push([[...path, "properties", key], child]);
    }
  }
  if (node.items !== undefined) children.push([[...path, "items"], node.items]);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [i, child] of list.entries()) children.push([[...path, key, `${i}`], child]);
  }
  for (const key of ["definitions", "$defs"] as const) {
    const defs = node[key];
    if (isNode(defs)) {
      for (const [name, child] of Object.entries(defs))
        children.push([[...path, key, name], child]);
    }
  }
  for (const [childPath, child] of children) {
    const problem = check(child, childPath);
    if (problem) return problem;
  }
  return null;
}

/** The first strict-mode rule the schema breaks, as OpenAI words it, or null. */
export function strictSchemaProblem(schema: unknown): string | null {
  if (!isNode(schema) || schema.type !== "object") {
    return "In context=(), schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.";
  }
  return check(schema, []);
}
