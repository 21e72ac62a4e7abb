import * as t from 'io-ts';

/** An event as the domain sees it: a type tag and its data, decoded from the store with io-ts. */
export const eventCodec = <T extends string, D extends t.Props>(type: T, data: D) =>
  t.type({ type: t.literal(type), data: t.type(data) });

/** ISO 8601 instants travel as strings in events; the domain compares them as epoch milliseconds. */
export const IsoInstant = t.string;

export const toMillis = (iso: string): number => Date.parse(iso);
