/**
 * The layers of DESIGN.md ("Shape"), checked by test/architecture/dependencies.spec.ts. A rule names what
 * a layer must not reach; npm packages and Node's own modules are not checked here.
 */
const PORT = '^src/adapters/[^/]+/port\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No module reaches itself again through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
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
      to: { path: '^(src/(http|subscribers|projections)/|src/adapters/|bot-runtime/|sandbox/)', pathNot: PORT },
    },
    {
      name: 'projections-use-domain-and-stores',
      comment: 'src/projections: the domain, and the read store and event store ports.',
      severity: 'error',
      from: { path: '^src/projections/' },
      to: { path: '^(src/(http|subscribers|commands)/|src/adapters/|contract/|bot-runtime/|sandbox/)', pathNot: PORT },
    },
    {
      name: 'subscribers-use-commands-and-ports',
      comment: 'src/subscribers: the domain, commands, read models and the adapters\' ports (never HTTP, never an adapter).',
      severity: 'error',
      from: { path: '^src/subscribers/' },
      to: { path: '^(src/http/|src/adapters/|bot-runtime/|sandbox/)', pathNot: PORT },
    },
    {
      name: 'adapters-use-domain-types',
      comment: 'src/adapters: the domain and each other; never commands, read models, subscribers or HTTP.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^(src/(http|subscribers|projections|commands)/|bot-runtime/|sandbox/)' },
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
      comment: 'src/http: commands, read models, the domain and ports; never a subscriber or an adapter.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^(src/subscribers/|src/adapters/|bot-runtime/|sandbox/)', pathNot: PORT },
    },
    {
      name: 'service-never-imports-the-bot',
      comment: 'The service and the bot share only contract/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(bot-runtime|sandbox)/' },
    },
    {
      name: 'bot-imports-only-itself-and-the-contract',
      comment: 'bot-runtime: its own code and contract/.',
      severity: 'error',
      from: { path: '^bot-runtime/' },
      to: { path: '^(src|sandbox|test|bench)/' },
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
