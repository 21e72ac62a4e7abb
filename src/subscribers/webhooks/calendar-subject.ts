/** A calendar's webhooks share one delivery subject per target, `calendar-<id>`, as a bot's share `bot-<id>`. */
export const subjectOfCalendar = (calendarId: string): string => `calendar-${calendarId}`;

export const calendarOfSubject = (subject: string): string | null => (subject.startsWith('calendar-') ? subject.slice('calendar-'.length) : null);
