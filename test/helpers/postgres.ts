// The throw-away PostgreSQL cluster (pg-cluster.ts) as a test file's hooks.
//
//   const pg = testPostgres();                 // in a test file: beforeAll/afterAll
//   const url = await pg.freshDatabase();     // postgres://postgres@127.0.0.1:PORT/t_N
import { afterAll, beforeAll } from 'vitest';
import { startCluster, type TestCluster } from './pg-cluster.js';

export { findPgBin, PASSWORD_ROLE, startCluster, type TestCluster } from './pg-cluster.js';

/** A cluster for the test file: started before its tests, stopped and removed after. */
export function testPostgres(): { freshDatabase(): Promise<string>; cluster(): TestCluster } {
  let cluster: TestCluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const started = () => {
    if (!cluster) throw new Error('the PostgreSQL test cluster did not start (see the error of beforeAll)');
    return cluster;
  };
  return { freshDatabase: () => started().freshDatabase(), cluster: started };
}
