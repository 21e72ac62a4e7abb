/**
 * Word error rate: the fewest word substitutions, deletions and insertions that turn the reference into
 * the hypothesis, over the number of reference words. Words are compared without case or punctuation
 * (recognisers differ in both; PocketSphinx writes neither).
 */

export interface WordErrors {
  readonly wer: number;
  readonly substitutions: number;
  readonly deletions: number;
  readonly insertions: number;
  readonly referenceWords: number;
  readonly hypothesisWords: number;
}

/** Lower case; letters, digits and inner apostrophes kept ("don't"); everything else separates words. */
export const normalizedWords = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 0);

/** Throws a RangeError for a reference without words: the rate has no denominator then. */
export const wordErrorRate = (reference: string, hypothesis: string): WordErrors => {
  const ref = normalizedWords(reference);
  const hyp = normalizedWords(hypothesis);
  if (ref.length === 0) throw new RangeError('the reference has no words to measure against');
  // cost[i][j]: edits from the first i reference words to the first j hypothesis words
  const cost: number[][] = Array.from({ length: ref.length + 1 }, (_, i) => Array.from({ length: hyp.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1];
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + (same ? 0 : 1), cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  // walk back along one cheapest path to tell the kinds of edit apart
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 || j > 0) {
    const here = cost[i]![j]!;
    if (i > 0 && j > 0 && here === cost[i - 1]![j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)) {
      if (ref[i - 1] !== hyp[j - 1]) substitutions++;
      i--;
      j--;
    } else if (i > 0 && here === cost[i - 1]![j]! + 1) {
      deletions++;
      i--;
    } else {
      insertions++;
      j--;
    }
  }
  return {
    wer: (substitutions + deletions + insertions) / ref.length,
    substitutions,
    deletions,
    insertions,
    referenceWords: ref.length,
    hypothesisWords: hyp.length,
  };
};
