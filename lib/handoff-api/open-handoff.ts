// One open handoff as the home page offers it to continue (listOpenHandoffs): a plain shape the
// browser's components may import.
export interface OpenHandoff {
  key: string;
  id: string;
  goal: string;
  stateSummary: string;
  updatedAt: string;
}
