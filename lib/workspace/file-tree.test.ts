import { describe, expect, it } from "vitest";
import { buildFileTree, type TreeNode } from "./file-tree";

const shape = (nodes: TreeNode<{ path: string }>[]): unknown[] =>
  nodes.map((node) =>
    node.kind === "file"
      ? node.path
      : { [`${node.path}/ (${node.fileCount})`]: shape(node.children) },
  );

describe("buildFileTree", () => {
  it("nests paths into folders, folders before files, each level by name", () => {
    const tree = buildFileTree([
      { path: "work/p2.md" },
      { path: "notes.md" },
      { path: "work/p1.md" },
      { path: "work/drafts/intro.md" },
      { path: "a.txt" },
    ]);
    expect(shape(tree)).toEqual([
      {
        "work/ (3)": [{ "work/drafts/ (1)": ["work/drafts/intro.md"] }, "work/p1.md", "work/p2.md"],
      },
      "a.txt",
      "notes.md",
    ]);
  });

  it("keeps each entry on its file node", () => {
    const entry = { path: "x/y.md", bytes: 12 };
    const [folder] = buildFileTree([entry]);
    expect(folder?.kind === "folder" && folder.children[0]).toEqual({
      kind: "file",
      name: "y.md",
      path: "x/y.md",
      entry,
    });
  });

  it("has no nodes for no files", () => {
    expect(buildFileTree([])).toEqual([]);
  });
});
