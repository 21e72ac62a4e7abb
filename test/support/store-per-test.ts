interface Closable {
  close(): Promise<void>;
}

export interface StorePerTest<S> {
  /** The store of the running test. */
  current(): S;
  /** Another connection to the same store (another process, in production), closed after the test. */
  another(): Promise<S>;
}

/**
 * For a contract suite: a store made afresh for each test, the other connections a test opens to it, all
 * closed after the test, and `cleanup` once the suite is done. Call it inside the suite's `describe`.
 */
export const storePerTest = <S extends Closable>(make: () => Promise<S>, openAgain: (store: S) => Promise<S>, cleanup?: () => Promise<void>): StorePerTest<S> => {
  let store: S | null = null;
  let others: S[] = [];
  beforeEach(async () => {
    store = await make();
  });
  afterEach(async () => {
    await Promise.all(others.map((other) => other.close()));
    others = [];
    await store?.close();
    store = null;
  });
  after(async () => {
    await cleanup?.();
  });
  const current = (): S => {
    if (store === null) throw new Error('no store outside a test');
    return store;
  };
  return {
    current,
    another: async () => {
      const other = await openAgain(current());
      others.push(other);
      return other;
    },
  };
};
