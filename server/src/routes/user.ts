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
import { initFields, loginFields, personKey, phoneFields, preDeleteFields, preRegisterFields, profileFields } from '../schemas/user'
import { callDefiners, type AppDeps } from './define'

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)

  publicCall('/api/user/login', loginFields, async (input) => logIn(db, input, clock.now()))

  sessionCall('/api/user/logout', noFields, async (_input, caller) => {
    await logOut(db.kysely, caller, clock.now())
    return null
  })

  sessionCall('/api/user/getinfo', noFields, async (_input, caller) => accountOf(db, caller, clock.now()))

  sessionCall('/api/user/init', initFields, async (input, caller) => initProfile(db, caller, input, clock.now()))

  sessionCall('/api/user/save', profileFields, async (patch, caller) => saveProfile(db.kysely, caller, patch, clock.now()))

  publicCall('/api/user/exist/phone', phoneFields, async ({ phone }) => phoneExists(db.kysely, phone))

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
}
