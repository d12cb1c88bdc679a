// The pause reader while the database is down: the health tells a database fault
// once, then a summary a minute (status/health.ts), so the reader itself says nothing;
// before, it logged a whole stack every 2 s (101 lines in 17 s with PostgreSQL down).
// Any other failure is still its own to tell.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPauses } from '../../../src/server/schedule/pauses.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const gone = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

afterEach(() => vi.restoreAllMocks());

describe('the pause reader while the database is down', () => {
  it('leaves a database fault to the health: no line every 2 s', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = createFakeClock();
    const pauses = createPauses({
      clock,
      storage: {
        pauses: () => Promise.reject(gone()),
        pauseCheck: () => Promise.reject(gone()),
        resumeCheck: () => Promise.reject(gone()),
      },
    });
    pauses.start();
    for (let i = 0; i < 10; i++) await clock.advance(2_000);
    await pauses.stop();
    expect(errors).not.toHaveBeenCalled();
  });

  it('still says a failure that is not the database', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = createFakeClock();
    const pauses = createPauses({
      clock,
      storage: {
        pauses: () => Promise.reject(new TypeError('a bug')),
        pauseCheck: () => Promise.resolve(undefined as never),
        resumeCheck: () => Promise.resolve(undefined as never),
      },
    });
    pauses.start();
    await clock.advance(2_000);
    await pauses.stop();
    expect(errors).toHaveBeenCalledWith('checkwall: cannot read the paused checks', expect.any(TypeError));
  });
});
