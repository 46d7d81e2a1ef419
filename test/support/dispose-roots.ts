import { disposeRoots } from './fakes'

afterEach(disposeRoots)
