import type { FastifyBaseLogger } from 'fastify'
import nodemailer from 'nodemailer'

export interface Mail {
  to: string
  subject: string
  text: string
}
export interface Mailer {
  send(mail: Mail): Promise<void>
}

/** DECISIONS S4: without SMTP_URL the message (and its link) is written to the server log. */
export function logMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      log.info({ mailTo: mail.to, subject: mail.subject }, `Correo no enviado (sin SMTP_URL):\n${mail.text}`)
    },
  }
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url)
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text })
    },
  }
}
