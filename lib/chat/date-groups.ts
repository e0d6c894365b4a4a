// The sidebar's date groups: Today, Yesterday, Previous 7 days, Older — by the thread's last
// activity in the reader's local calendar. Pure; the list is already newest first, and each
// group keeps that order.
const DATE_GROUPS = ["Today", "Yesterday", "Previous 7 days", "Older"] as const;
export type DateGroup = (typeof DATE_GROUPS)[number];

const startOfDay = (date: Date) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/** Which group a moment falls in, seen from `now` (local time; a future moment is Today). */
export function dateGroupOf(at: Date, now: Date): DateGroup {
  const today = startOfDay(now);
  const day = startOfDay(at);
  if (day >= today) return "Today";
  // Calendar days, not 24-hour spans: a daylight-saving day is still one day.
  const yesterday = startOfDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (day >= yesterday) return "Yesterday";
  const weekAgo = startOfDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7));
  return day >= weekAgo ? "Previous 7 days" : "Older";
}

/** The items in their groups, groups in DATE_GROUPS order, empty groups left out. */
export function groupByDate<T>(
  items: readonly T[],
  dateOf: (item: T) => string,
  now: Date,
): { group: DateGroup; items: T[] }[] {
  const byGroup = new Map<DateGroup, T[]>();
  for (const item of items) {
    const group = dateGroupOf(new Date(dateOf(item)), now);
    const list = byGroup.get(group);
    if (list) list.push(item);
    else byGroup.set(group, [item]);
  }
  return DATE_GROUPS.flatMap((group) => {
    const list = byGroup.get(group);
    return list ? [{ group, items: list }] : [];
  });
}
