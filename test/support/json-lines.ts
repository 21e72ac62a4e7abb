/**
 * The JSON lines of a file or stream that may still be growing: a last line without its newline is being
 * written and is not a line yet (reading it would parse half a record).
 */
export const completeJsonLines = (text: string): any[] => {
  const end = text.lastIndexOf('\n');
  if (end < 0) return [];
  return text
    .slice(0, end)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
};
