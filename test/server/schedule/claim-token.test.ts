// A claim token names its runner: made and read back by the one module.
import { describe, expect, it } from 'vitest';
import { claimToken, parseClaimToken } from '../../../src/server/schedule/claim-token.js';

describe('claim tokens', () => {
  it.each(['runner-1', 'eu.west_2', 'host:7'])(
    'give back the runner id they were made for (%s)',
    (runnerId) => {
      const token = claimToken(runnerId);
      expect(parseClaimToken(token)?.runnerId).toBe(runnerId);
      expect(parseClaimToken(claimToken(runnerId, 'n1'))).toEqual({ runnerId, nonce: 'n1' });
    },
  );

  it('differ from claim to claim', () => {
    expect(claimToken('r')).not.toBe(claimToken('r'));
  });

  it.each(['', 'no-colon', ':no-runner', 'runner:', 'bad id!:x', `${'r'.repeat(101)}:x`])(
    'read nothing from a malformed token (%j)',
    (token) => {
      expect(parseClaimToken(token)).toBeUndefined();
    },
  );
});
