// Every route the node serves. A route that is not done does not appear here.
import type { Route } from '../route.js';
import { chainRoutes } from './chain.js';
import { debugRoutes } from './debug.js';
import { toolsRoutes } from './tools.js';

export const ROUTES: Route<any>[] = [...chainRoutes, ...toolsRoutes, ...debugRoutes];
