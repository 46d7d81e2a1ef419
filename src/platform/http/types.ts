/** The HTTP transport the API client posts through (the contract lives with the client, which tests drive with fakes). */
export type { HttpResponse, HttpTransport } from '../../api/client'
