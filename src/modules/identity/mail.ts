import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailProviderSettings } from './config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail over SMTP with `auth.providers.email`; one pooled transport per process. */
export class Mailer {
  private transport: Transporter | undefined;

  constructor(private readonly settings: EmailProviderSettings) {}

  get enabled() {
    return this.settings.enabled;
  }

  async send(mail: Mail) {
    this.transport ??= nodemailer.createTransport({
      host: this.settings.host,
      port: this.settings.port,
      secure: this.settings.secure,
      ...(this.settings.user ? { auth: { user: this.settings.user, pass: this.settings.pass ?? '' } } : {}),
    });
    await this.transport.sendMail({ from: this.settings.from, ...mail });
  }

  close() {
    this.transport?.close();
  }
}
