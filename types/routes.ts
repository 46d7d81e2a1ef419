/**
 * Route planning (issue 8: /route, /route/add): saved routes through ordered stops (markers or map
 * points), with distance and duration. Filled in by the routes work; empty until then.
 */
export interface RouteApi {}
