/** Signed-in bots (issue 20): workspaces and logins of tm and mt, their pools, and how sign-ins fail. */
export * from './login-platform';
export * from './login-events';
export * from './workspace-events';
export * from './pool-events';
export * from './login-decider';
export * from './workspace-decider';
export * from './pool-decider';
export * from './pool-selection';
export * from './sign-in-failures';
