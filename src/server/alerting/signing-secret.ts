// A WEBHOOK channel's signing secret: 32 random bytes, recognisable by its prefix.
import { randomBytes } from 'node:crypto';

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;
