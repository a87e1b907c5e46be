/** Version and commit of this build; build.mjs writes them in, and APP_VERSION / COMMIT_ID override them. */
export const BUILD_INFO = {
  version: process.env.BUILD_VERSION ?? '0.1.0-dev',
  commitId: process.env.BUILD_COMMIT ?? 'dev',
};
