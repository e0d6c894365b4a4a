// The workspace's flat path list as a folder tree for the files panel: folders first, then
// files, each level sorted by name. Pure, so the panel renders what this returns.
interface TreeFile<T> {
  kind: "file";
  name: string;
  path: string;
  entry: T;
}

interface TreeFolder<T> {
  kind: "folder";
  name: string;
  /** The folder's path, without a trailing slash. */
  path: string;
  children: TreeNode<T>[];
  /** Files anywhere below this folder. */
  fileCount: number;
}

export type TreeNode<T> = TreeFile<T> | TreeFolder<T>;

export function buildFileTree<T extends { path: string }>(entries: readonly T[]): TreeNode<T>[] {
  const root: TreeFolder<T> = { kind: "folder", name: "", path: "", children: [], fileCount: 0 };
  for (const entry of entries) {
    const segments = entry.path.split("/").filter(Boolean);
    const name = segments.pop();
    if (!name) continue;
    let folder = root;
    folder.fileCount++;
    for (const segment of segments) {
      let next = folder.children.find(
        (child): child is TreeFolder<T> => child.kind === "folder" && child.name === segment,
      );
      if (!next) {
        const path = folder.path ? `${folder.path}/${segment}` : segment;
        next = { kind: "folder", name: segment, path, children: [], fileCount: 0 };
        folder.children.push(next);
      }
      next.fileCount++;
      folder = next;
    }
    folder.children.push({ kind: "file", name, path: entry.path, entry });
  }
  sortTree(root.children);
  return root.children;
}

function sortTree<T>(nodes: TreeNode<T>[]): void {
  nodes.sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name, "en") : a.kind === "folder" ? -1 : 1,
  );
  for (const node of nodes) if (node.kind === "folder") sortTree(node.children);
}
