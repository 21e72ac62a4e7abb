/** A server's URL without its password, to name the server in messages and logs; `setting` names it when it cannot be parsed. */
export const urlWithoutPassword = (url: string, setting: string): string => {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return `(an unparsable ${setting})`;
  }
};
