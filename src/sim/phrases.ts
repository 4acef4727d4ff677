// What players say, with the translations the chat pipeline would have produced and, for the
// few nasty lines, the moderation scores the analyser would have raised.

import type { ModerationScore } from '../domain/enums.ts';

export interface Phrase {
  text: Record<string, string>;
  /** Scores this line scores high on; every other score stays low. */
  flags?: Partial<Record<ModerationScore, number>>;
}

export const PHRASES: readonly Phrase[] = [
  {
    text: {
      en: 'Anyone want to tame a rex with me?',
      de: 'Will jemand mit mir einen Rex zähmen?',
      es: '¿Alguien quiere domar un rex conmigo?',
      fr: "Quelqu'un veut apprivoiser un rex avec moi ?",
      ja: '一緒にレックスをテイムしたい人いる？',
      pt: 'Alguém quer domar um rex comigo?',
    },
  },
  {
    text: {
      en: 'Good morning everyone!',
      de: 'Guten Morgen zusammen!',
      es: '¡Buenos días a todos!',
      fr: 'Bonjour tout le monde !',
      ja: 'みなさん、おはようございます！',
      pt: 'Bom dia a todos!',
    },
  },
  {
    text: {
      en: 'Where can I find metal on this map?',
      de: 'Wo finde ich Metall auf dieser Karte?',
      es: '¿Dónde encuentro metal en este mapa?',
      fr: 'Où trouver du métal sur cette carte ?',
      ja: 'このマップで金属はどこにありますか？',
      pt: 'Onde encontro metal neste mapa?',
    },
  },
  {
    text: {
      en: 'Selling argy saddles, 200 metal each',
      de: 'Verkaufe Argy-Sättel, 200 Metall pro Stück',
      es: 'Vendo sillas de argy, 200 de metal cada una',
      fr: "Je vends des selles d'argy, 200 de métal chacune",
      ja: 'アルゲンタヴィスのサドル売ります、1個200金属',
      pt: 'Vendo selas de argy, 200 de metal cada',
    },
    flags: { financialAdviceScore: 0.35 },
  },
  {
    text: {
      en: 'The server lag is terrible tonight',
      de: 'Der Server laggt heute Abend furchtbar',
      es: 'El lag del servidor es terrible esta noche',
      fr: 'Le serveur lag horriblement ce soir',
      ja: '今夜はサーバーのラグがひどい',
      pt: 'O lag do servidor está terrível hoje',
    },
  },
  {
    text: {
      en: "I'm going to wipe your whole tribe tonight",
      de: 'Ich lösche heute Nacht euren ganzen Stamm aus',
      es: 'Esta noche voy a borrar a toda tu tribu',
      fr: 'Je vais raser toute ta tribu ce soir',
      ja: '今夜お前の部族を全滅させてやる',
      pt: 'Vou acabar com sua tribo inteira hoje à noite',
    },
    flags: { violenceScore: 0.82, dangerScore: 0.64 },
  },
  {
    text: {
      en: 'You are all worthless idiots',
      de: 'Ihr seid alle wertlose Idioten',
      es: 'Todos ustedes son unos idiotas inútiles',
      fr: 'Vous êtes tous des idiots sans valeur',
      ja: 'お前らみんな役立たずのバカだ',
      pt: 'Vocês são todos uns idiotas inúteis',
    },
    flags: { hateScore: 0.91 },
  },
  {
    text: {
      en: 'My real address is 12 Elm Street, come visit',
      de: 'Meine echte Adresse ist Ulmenstraße 12, kommt vorbei',
      es: 'Mi dirección real es calle Olmo 12, vengan',
      fr: 'Ma vraie adresse est 12 rue des Ormes, passez',
      ja: '本当の住所はエルム通り12番地だよ、遊びに来て',
      pt: 'Meu endereço real é Rua dos Olmos 12, venham',
    },
    flags: { identifiableInfoScore: 0.88 },
  },
  {
    text: {
      en: 'gg, nice raid',
      de: 'gg, schöner Raid',
      es: 'gg, buena incursión',
      fr: 'gg, beau raid',
      ja: 'gg、いいレイドだった',
      pt: 'gg, boa raid',
    },
  },
  {
    text: {
      en: 'Does anyone know what helps with a headache?',
      de: 'Weiß jemand, was gegen Kopfschmerzen hilft?',
      es: '¿Alguien sabe qué ayuda con el dolor de cabeza?',
      fr: 'Quelqu’un sait ce qui aide contre le mal de tête ?',
      ja: '頭痛に効くもの知ってる人いる？',
      pt: 'Alguém sabe o que ajuda com dor de cabeça?',
    },
    flags: { medicalAdviceScore: 0.58 },
  },
];
