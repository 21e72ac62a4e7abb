import type Logger from 'bunyan';
import { personalDataOwnerOf, personalFieldsOf, type PersonalField } from '../../domain/bot/personal-data';
import type { KeyLookup, KeyVault } from '../key-vault/port';
import type { AppendResult, EventStore, ExpectedRevision, NewEvent, RecordedEvent, StreamName, SubscribeOptions, Subscription } from '../event-store/port';
import { isSealedPersonalValue, openPersonalValue, sealPersonalValue } from './field-sealer';
import { valueAt, withValueAt } from './event-paths';

type Data = Readonly<Record<string, unknown>>;

/** Where a value was sealed: it opens only there. */
const placeOf = (owner: string, type: string, field: PersonalField) => `${owner}|${type}|${field.path.join('.')}`;

/** A field carries something to seal: present and not null (null and absence say nothing about anyone). */
const carries = (value: unknown) => value !== undefined && value !== null;

/**
 * The event log with a bot's personal data sealed (src/domain/bot/personal-data.ts): in one place, on the
 * way in and out of the store, so that deciders, codecs, projections and subscribers never see a sealed
 * value. Appending seals each personal field with its owner's data key; reading opens it. Once the owner's
 * key is destroyed (its data deleted), every read gives the field's placeholder instead, sealed or not:
 * events written before keys existed hold their personal fields in clear, and the key vault's tombstone
 * hides them from every reader and every rebuild as well. The log itself is never rewritten.
 */
export class PersonalDataEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly keys: KeyVault,
    private readonly log?: Logger,
  ) {}

  async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.appendToStream(stream, await Promise.all(events.map((event) => this.sealed(event))), expected);
  }

  async readStream(stream: StreamName, options?: { readonly fromRevision?: bigint }): Promise<readonly RecordedEvent[]> {
    return this.openedAll(await this.inner.readStream(stream, options));
  }

  async readAll(options?: { readonly fromPosition?: bigint; readonly maxCount?: number }): Promise<readonly RecordedEvent[]> {
    return this.openedAll(await this.inner.readAll(options));
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return this.inner.subscribeToAll(options, async (event) => handler(await this.opened(event)));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async sealed<E extends NewEvent>(event: E): Promise<E> {
    const owner = personalDataOwnerOf(event.type, event.data);
    if (owner === null) return event;
    const fields = personalFieldsOf(event.type).filter((f) => carries(valueAt(event.data, f.path)));
    if (fields.length === 0) return event;
    const key = await this.keys.keyToSeal(owner);
    // A bot whose data was deleted gets nothing personal written in clear again (a resend's message).
    const data = fields.reduce<Data>(
      (d, f) => withValueAt(d, f.path, key === null ? f.placeholder : sealPersonalValue(key, placeOf(owner, event.type, f), valueAt(d, f.path))),
      event.data,
    );
    return { ...event, data: data as Record<string, unknown> };
  }

  private async openedAll(events: readonly RecordedEvent[]): Promise<readonly RecordedEvent[]> {
    // One lookup per owner of a batch: a stream, or a page of a rebuild, is mostly a few bots' events.
    const lookups = new Map<string, Promise<KeyLookup>>();
    const lookup = (owner: string) => {
      let found = lookups.get(owner);
      if (!found) lookups.set(owner, (found = this.keys.lookup(owner)));
      return found;
    };
    return Promise.all(events.map((event) => this.opened(event, lookup)));
  }

  private async opened(event: RecordedEvent, lookup: (owner: string) => Promise<KeyLookup> = (owner) => this.keys.lookup(owner)): Promise<RecordedEvent> {
    const owner = personalDataOwnerOf(event.type, event.data);
    if (owner === null) return event;
    const fields = personalFieldsOf(event.type).filter((f) => carries(valueAt(event.data, f.path)));
    if (fields.length === 0) return event;
    const found = await lookup(owner);
    const data = fields.reduce<Data>((d, f) => {
      const value = valueAt(d, f.path);
      if (found.state === 'destroyed') return withValueAt(d, f.path, f.placeholder);
      if (!isSealedPersonalValue(value)) return d;
      return withValueAt(d, f.path, this.openedValue(found, owner, event, f, value));
    }, event.data);
    return data === event.data ? event : { ...event, data: data as Record<string, unknown> };
  }

  /** A sealed value opened; one that cannot be (its key lost with the key vault, or not its place) reads as deleted. */
  private openedValue(found: KeyLookup, owner: string, event: RecordedEvent, field: PersonalField, value: { readonly $personal: string }): unknown {
    if (found.state !== 'live') {
      this.log?.warn({ owner, event_id: event.id }, 'a sealed personal field has no key: it reads as deleted');
      return field.placeholder;
    }
    try {
      return openPersonalValue(found.key, placeOf(owner, event.type, field), value);
    } catch (err) {
      this.log?.warn({ err, owner, event_id: event.id }, 'a sealed personal field does not open: it reads as deleted');
      return field.placeholder;
    }
  }
}
