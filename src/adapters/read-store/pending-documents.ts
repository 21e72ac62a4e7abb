/** A document as the open transaction knows it: its JSON and position, and whether SQLite still lacks it. */
export interface PendingDocument {
  readonly json: string;
  readonly position: bigint;
  readonly dirty: boolean;
}

/**
 * The documents the SQLite read store's open transaction has read or written, kept in memory until it
 * commits: a document that several events of one commit change (a bot's view, its team's, a sequence
 * counter) is read once and written once. A failed `atomically` puts back what it changed here
 * (`undoWork`), as its savepoint does in SQLite.
 */
export class PendingDocuments {
  private readonly collections = new Map<string, Map<string, PendingDocument>>();
  private undo: (() => void)[] | null = null;

  get(collection: string, id: string): PendingDocument | undefined {
    return this.collections.get(collection)?.get(id);
  }

  /** A document as read from SQLite (or known missing: not kept). */
  remember(collection: string, id: string, json: string, position: bigint): void {
    this.documents(collection).set(id, { json, position, dirty: false });
  }

  write(collection: string, id: string, json: string, position: bigint): void {
    const documents = this.documents(collection);
    const before = documents.get(id);
    this.undo?.push(() => (before === undefined ? documents.delete(id) : documents.set(id, before)));
    documents.set(id, { json, position, dirty: true });
  }

  hasDirty(collection: string): boolean {
    for (const document of this.collections.get(collection)?.values() ?? []) if (document.dirty) return true;
    return false;
  }

  /** Hands the unwritten documents of a collection (every collection: omitted) to `write`, then counts them written. */
  flush(write: (collection: string, id: string, document: PendingDocument) => void, only?: string): void {
    for (const [collection, documents] of this.collections) {
      if (only !== undefined && collection !== only) continue;
      for (const [id, document] of documents) {
        if (!document.dirty) continue;
        write(collection, id, document);
        documents.set(id, { ...document, dirty: false });
      }
    }
  }

  beginWork(): void {
    this.undo = [];
  }

  endWork(): void {
    this.undo = null;
  }

  /**
   * Puts back what the failed work changed. Whatever was written to SQLite during it (a query flushes) is
   * undone by its savepoint, so every document is counted unwritten again: written twice at worst.
   */
  undoWork(): void {
    for (const step of (this.undo ?? []).reverse()) step();
    this.undo = null;
    for (const documents of this.collections.values()) for (const [id, document] of documents) documents.set(id, { ...document, dirty: true });
  }

  clear(): void {
    this.collections.clear();
    this.undo = null;
  }

  private documents(collection: string): Map<string, PendingDocument> {
    let documents = this.collections.get(collection);
    if (documents === undefined) {
      documents = new Map();
      this.collections.set(collection, documents);
    }
    return documents;
  }
}
