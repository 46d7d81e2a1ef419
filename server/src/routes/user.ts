/**
 * /api/user/*: sign-in (taking up pre-registrations of the phone), the session's account (moving a
 * user who lost their selected group to their own map), profile, account deletion, and
 * pre-registering people by phone into the team, and looking a person up by phone or uid
 * before adding them (services/lookup.ts).
 */
import type { FastifyInstance } from 'fastify'
import { lookUpPerson } from '../services/lookup'
import { storageOf } from '../services/storage'
import { accountOf, deleteAccount, deletePreRegistration, expiredInfo, initProfile, logIn, logOut, phoneExists, preRegister, saveProfile } from '../services/user'
import { noFields } from '../schemas/common'
import { acceptInvitation, declineInvitation, invitationsOfCaller } from '../services/invitations'
import { revokeOtherDevices, sessionsOfCaller } from '../services/devices'
import { idFields, initFields, loginFields, personKey, phoneFields, preDeleteFields, preRegisterFields, profileFields } from '../schemas/user'
import { callDefiners, type AppDeps } from './define'

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)

  publicCall('/api/user/login', loginFields, async (input, request) => logIn(db, input, clock.now(), signInDevice(request.header)))

  sessionCall('/api/user/logout', noFields, async (_input, caller) => {
    await logOut(db.kysely, caller, clock.now())
    return null
  })

  sessionCall('/api/user/getinfo', noFields, async (_input, caller) => accountOf(db, caller, clock.now()))

  sessionCall('/api/user/init', initFields, async (input, caller) => initProfile(db, caller, input, clock.now()))

  sessionCall('/api/user/save', profileFields, async (patch, caller) => saveProfile(db.kysely, caller, patch, clock.now()))

  publicCall('/api/user/exist/phone', phoneFields, async ({ phone }, request) => phoneExists(db.kysely, phone, request.ip, clock.now()))

  sessionCall('/api/user/check/expired', noFields, async (_input, caller) => expiredInfo(db.kysely, caller, clock.now()))

  const storage = storageOf(app, deps)
  sessionCall('/api/user/logoff', noFields, async (_input, caller) => {
    await deleteAccount(db, storage, caller, clock.now())
    return null
  })

  sessionCall('/api/user/pre/register', preRegisterFields, async (input, caller) => preRegister(db, caller, input, clock.now()))

  sessionCall('/api/user/get/overview/phoneuid', personKey, async (key, caller) => lookUpPerson(db.kysely, caller, key, clock.now()))

  sessionCall('/api/user/pre/delete', preDeleteFields, async ({ id }, caller) => {
    await deletePreRegistration(db.kysely, caller, id)
    return null
  })

  // The invited person's side of pre/register: their invitations, and their yes or no.
  sessionCall('/api/user/invite/getlist', noFields, async (_input, caller) => invitationsOfCaller(db.kysely, caller))

  sessionCall('/api/user/invite/accept', idFields, async ({ id }, caller) => acceptInvitation(db, caller, id, clock.now()))

  sessionCall('/api/user/invite/decline', idFields, async ({ id }, caller) => {
    await declineInvitation(db.kysely, caller, id)
    return null
  })

  // The signed-in devices (settings) and signing the others out.
  sessionCall('/api/user/session/getlist', noFields, async (_input, caller) => sessionsOfCaller(db.kysely, caller, clock.now()))

  sessionCall('/api/user/session/revoke/others', noFields, async (_input, caller) => revokeOtherDevices(db.kysely, caller, clock.now()))
}

/** The device and os of a sign-in's header, as short strings (whatever the client sent). */
function signInDevice(header: unknown): { device: string; os: string } {
  const h = (header && typeof header === 'object' ? header : {}) as { device?: unknown; os?: unknown }
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 32) : '')
  return { device: text(h.device), os: text(h.os) }
}
