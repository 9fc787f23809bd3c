export {
  type DemoDataOptions,
  type DemoDataResult,
  type DemoPlan,
  type DemoProgress,
  demoBatches,
  type FillDemoDataOptions,
  fillDemoData,
  planDemoData,
} from './fill';
export type { Incident } from './incidents';
export { type DemoHost, demoHosts, type HostRole } from './profiles';
