/**
 * The layers of DESIGN.md ("Shape"), checked by test/architecture/dependencies.spec.ts. A rule names what
 * a layer must not reach; npm packages and Node's own modules are not checked here.
 */
const PORT = '^src/adapters/[^/]+/port\\.ts$';
/**
 * What the rest of the service reaches only through a port, injected by the composition root
 * (src/service.ts, src/capabilities/): the stores, the bot launcher, the outgoing webhook client and the
 * database drivers' plumbing. Adapters that are plain tools with no state of their own (sealing, signing,
 * Standard Webhooks signatures, S3 addresses, target policies, provider names) may be used directly.
 */
const BEHIND_PORTS = '^src/adapters/(event-store|read-store|checkpoint-store|shared-state|bot-launcher|bot-control|postgres|mongo)/|^src/adapters/webhook-http/node-webhook-http\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'No module reaches itself again through its imports. Type-only imports are left out: they vanish when compiled, so they cannot make modules load in a circle.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing outside src/domain.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^(src/(?!domain/)|contract/|bot-runtime/|sandbox/)' },
    },
    {
      name: 'commands-use-domain-and-ports',
      comment: 'src/commands: the domain and the adapters\' ports only.',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^(src/(http|subscribers|projections|capabilities)/|src/adapters/|bot-runtime/|sandbox/)', pathNot: PORT },
    },
    {
      name: 'projections-use-domain-and-stores',
      comment: 'src/projections: the domain, and the read store and event store ports.',
      severity: 'error',
      from: { path: '^src/projections/' },
      to: { path: '^(src/(http|subscribers|commands|capabilities)/|src/adapters/|contract/|bot-runtime/|sandbox/)', pathNot: PORT },
    },
    {
      name: 'subscribers-use-commands-and-ports',
      comment: 'src/subscribers: the domain, commands, read models, the adapters\' ports and tools; never HTTP, never a store or the launcher itself.',
      severity: 'error',
      from: { path: '^src/subscribers/' },
      to: { path: `^(src/(http|capabilities)/|bot-runtime/|sandbox/)|${BEHIND_PORTS}`, pathNot: PORT },
    },
    {
      name: 'adapters-use-domain-types',
      comment: 'src/adapters: the domain and each other; never commands, read models, subscribers or HTTP.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^(src/(http|subscribers|projections|commands|capabilities)/|bot-runtime/|sandbox/)' },
    },
    {
      name: 'port-without-its-adapter',
      comment: 'A port never imports an implementation of itself.',
      severity: 'error',
      from: { path: '^src/adapters/([^/]+)/port\\.ts$' },
      to: { path: '^src/adapters/$1/', pathNot: PORT },
    },
    {
      name: 'http-uses-commands-and-read-models',
      comment: 'src/http: commands, read models, the domain, the adapters\' ports and tools; never a subscriber, a store or the launcher itself.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: `^(src/(subscribers|capabilities)/|bot-runtime/|sandbox/)|${BEHIND_PORTS}`, pathNot: PORT },
    },
    {
      name: 'service-never-imports-the-bot',
      comment:
        'The service and the bot share only contract/: the job, the reports and the internal API, and the rules both sides apply (the bot user and its environment, the address policy of customers\' endpoints, ffmpeg\'s input guard).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(bot-runtime|sandbox)/' },
    },
    {
      name: 'bot-imports-only-itself-and-the-contract',
      comment:
        'bot-runtime: its own code, contract/, and the S3 upload code it shares with the service (the bot puts into buckets with the same client; moving it out is left for a later change).',
      severity: 'error',
      from: { path: '^bot-runtime/' },
      to: { path: '^(src|sandbox|test|bench)/', pathNot: '^src/adapters/object-store/s3-(client|errors|location|upload)\\.ts$' },
    },
    {
      name: 'shared-s3-code-stands-alone',
      comment: 'What the bot borrows from the service (the S3 upload code) must not pull the service in with it.',
      severity: 'error',
      from: { path: '^src/adapters/object-store/s3-(client|errors|location|upload)\\.ts$' },
      to: { path: '^src/(?!adapters/object-store/)' },
    },
    {
      name: 'contract-stands-alone',
      comment: 'contract/ is shared by both sides and imports neither.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(src|bot-runtime|sandbox)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
