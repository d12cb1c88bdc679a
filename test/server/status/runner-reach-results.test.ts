// A remote location's result is its runner's contact (issue 12): an instance that
// learns of a runner's polls only through the database, seconds late, must not call
// a location "no runner connected" while its results keep arriving.
import { afterEach, describe, expect, it } from 'vitest';
import { locationStatus } from '../../helpers/multi-instance.js';
import { remoteConfig } from '../../helpers/runner.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('runner reach from stored results', () => {
  it('a fresh result from a remote location counts as its runner in touch; a stale one does not', async () => {
    const config = remoteConfig('http://127.0.0.1:9', [
      { id: 'fresh', frequency: '2s' },
      { id: 'stale', frequency: '2s' },
    ]);
    service = await startTestService({ config });
    const now = Date.now();
    const [fresh] = await service.seed('fresh', ['success'], { location: 'far', endAt: now });
    await service.seed('stale', ['success'], { location: 'far', endAt: now - 60_000 });

    const far = await locationStatus(service.url, 'fresh', 'far');
    expect(far).toMatchObject({ status: 'passing', remote: true, runnerLastSeen: fresh!.startedAt });
    expect(far?.statusReason).toBeUndefined();
    expect(await locationStatus(service.url, 'stale', 'far')).toMatchObject({
      status: 'unknown',
      statusReason: 'no runner connected for Far Away',
      runnerLastSeen: new Date(now - 60_000).toISOString(),
    });
  });
});
