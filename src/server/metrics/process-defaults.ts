// prom-client's default process families (`process_*`, `nodejs_*`: CPU, memory, GC, handles,
// the version) on the service's registry, each from prom-client's own module, as its
// collectDefaultMetrics registers them, but for its event-loop delay monitor: a timer of its own
// that woke the main thread 10 times a second. The service measures those families at its own
// timers instead (loop-delay.ts). prom-client exports only the whole set, so the modules are taken
// by their paths in its package: a test (test/server/metrics/instance.test.ts) holds the families
// to collectDefaultMetrics' own list, so an upgrade that moves or adds one fails it.
import type { Registry } from 'prom-client';
import gc from 'prom-client/lib/metrics/gc.js';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed.js';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed.js';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap.js';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal.js';
import processHandles from 'prom-client/lib/metrics/processHandles.js';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors.js';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors.js';
import processRequests from 'prom-client/lib/metrics/processRequests.js';
import processResources from 'prom-client/lib/metrics/processResources.js';
import processStartTime from 'prom-client/lib/metrics/processStartTime.js';
import version from 'prom-client/lib/metrics/version.js';

/** Every default family of prom-client but the event-loop delay monitor's. */
export function registerProcessDefaults(registry: Registry): void {
  for (const register of [
    processCpuTotal,
    processStartTime,
    osMemoryHeap,
    processOpenFileDescriptors,
    processMaxFileDescriptors,
    processResources,
    processHandles,
    processRequests,
    heapSizeAndUsed,
    heapSpacesSizeAndUsed,
    version,
    gc,
  ])
    register(registry);
}
