// The note the offline model writes for one plan item (`work/<id>.md`): about 400 words built
// only from the item's id and task, so the same item always yields the same file.

/** The note is cut at the first sentence that reaches this many words. */
export const WORK_NOTE_WORDS = 400;

const STOPWORDS = new Set(
  "a an and are as at be by for from in into is it its of on or our so the their then this to up we with".split(
    " ",
  ),
);

function keywords(task: string): string[] {
  const words = task
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !STOPWORDS.has(w));
  const unique = [...new Set(words)];
  return unique.length > 0 ? unique : ["task"];
}

type Sentence = (task: string, word: string, n: number) => string;

/*
 * Sections in a fixed order; each section's sentences cycle over the task's keywords so two
 * items with different tasks read differently while staying deterministic.
 */
const SECTIONS: { heading: string; sentences: Sentence[] }[] = [
  {
    heading: "Goal",
    sentences: [
      (t) => `This note records the work on “${t}”.`,
      (_, w) =>
        `The outcome is a clear account of ${w} that the next session can pick up without asking again.`,
      (_, w) => `Done means the questions about ${w} are answered and written down here.`,
    ],
  },
  {
    heading: "Context",
    sentences: [
      (t) => `The task “${t}” is one item of the thread's plan, worked on in plan order.`,
      (_, w) =>
        `Earlier items may already mention ${w}; this note builds on them rather than repeating them.`,
      (_, w) =>
        `Nothing here depends on memory outside the workspace: what matters about ${w} is in this file.`,
    ],
  },
  {
    heading: "Approach",
    sentences: [
      (_, w, n) =>
        `Step ${n}: list what is already known about ${w} and mark each point as confirmed or assumed.`,
      (_, w, n) =>
        `Step ${n}: compare the options for ${w}, keeping the simplest one that meets the goal.`,
      (_, w, n) => `Step ${n}: write the decision about ${w} down with the reason for it.`,
      (_, w, n) =>
        `Step ${n}: check the result against the goal and note anything about ${w} that is still open.`,
    ],
  },
  {
    heading: "Findings",
    sentences: [
      (_, w) =>
        `The main point about ${w} is that it should stay small enough to review in one sitting.`,
      (_, w) =>
        `Where ${w} touches other items, the shared parts are named so they are not done twice.`,
      (_, w) => `Each claim about ${w} in this note says whether it was checked or only assumed.`,
      (_, w) => `A short example makes ${w} concrete for whoever reads this next.`,
    ],
  },
  {
    heading: "Risks",
    sentences: [
      (_, w) =>
        `The risk with ${w} is doing more than the task asks and running out of room for the rest of the plan.`,
      (_, w) =>
        `Another risk is treating a guess about ${w} as a fact; guesses are labelled as such.`,
      (_, w) =>
        `If ${w} turns out to need someone's approval, that is written down instead of assumed.`,
    ],
  },
  {
    heading: "Checks",
    sentences: [
      (_, w) =>
        `Check that every statement about ${w} can be traced to something in the workspace.`,
      (_, w) => `Check that the next step after ${w} is stated plainly.`,
      (t) => `Check that “${t}” is marked done in the plan only after this file is written.`,
    ],
  },
  {
    heading: "Next",
    sentences: [
      (_, w) =>
        `The next session continues with the following plan item and reads this note if ${w} comes up again.`,
      (_, w) => `Open questions about ${w} stay listed here until an item closes them.`,
    ],
  },
];

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The markdown note for plan item `id`: headings and short paragraphs, ~WORK_NOTE_WORDS words. */
export function renderWorkNote(id: string, task: string): string {
  const words = keywords(task);
  const lines = [`# ${id}: ${task}`, ""];
  let total = countWords(lines[0] ?? "");
  let used = 0;
  // Rounds through the sections until the note is long enough; each round picks new keywords.
  for (let round = 0; total < WORK_NOTE_WORDS; round++) {
    for (const section of SECTIONS) {
      if (total >= WORK_NOTE_WORDS) break;
      const heading =
        round === 0 ? `## ${section.heading}` : `## ${section.heading} (${round + 1})`;
      const paragraph: string[] = [];
      for (const [i, sentence] of section.sentences.entries()) {
        if (total >= WORK_NOTE_WORDS) break;
        const word = words[used % words.length] ?? "task";
        used++;
        const text = sentence(task, word, round * section.sentences.length + i + 1);
        paragraph.push(text);
        total += countWords(text);
      }
      lines.push(heading, "", paragraph.join(" "), "");
      total += countWords(heading);
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
