/**
 * The month and day names a date pattern's text fields (MMM, MMMM, EEE, EEEE, a) parse and print in a mapping's
 * `locale`, as java.time reads them from the JDK's CLDR data (the locale provider of ES 8): format-context names,
 * matched case-sensitively as ES's strict pattern parsers do. Locales are read as ES's LocaleUtils.parse reads
 * them (`de`, `de_DE`, `de-DE`, `ROOT`); a region falls back to its language, and a language without data here
 * falls back to the root names (English), as the JDK falls back to root.
 */
import { DateFormatError } from './date-errors.js';

export interface DateLocale {
  /** The locale as the mapping gave it ('' for the default, Locale.ROOT). */
  readonly tag: string;
  readonly monthsFull: readonly string[];
  readonly monthsShort: readonly string[];
  readonly monthsNarrow: readonly string[];
  /** Monday first, as java.time's DayOfWeek. */
  readonly daysFull: readonly string[];
  readonly daysShort: readonly string[];
  readonly daysNarrow: readonly string[];
  readonly ampm: readonly [string, string];
}

interface LocaleNames {
  readonly monthsFull: readonly string[];
  readonly monthsShort: readonly string[];
  readonly monthsNarrow: readonly string[];
  readonly daysFull: readonly string[];
  readonly daysShort: readonly string[];
  readonly daysNarrow: readonly string[];
  readonly ampm: readonly [string, string];
}

const NBSP = '\u00a0';

/** CLDR format-context names per language (Monday-first days). */
const LANGUAGES: Readonly<Record<string, LocaleNames>> = {
  en: {
    monthsFull: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    monthsShort: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    monthsNarrow: ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    daysShort: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
    daysNarrow: ['M', 'T', 'W', 'T', 'F', 'S', 'S'],
    ampm: ['AM', 'PM'],
  },
  de: {
    monthsFull: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
    monthsShort: ['Jan.', 'Feb.', 'März', 'Apr.', 'Mai', 'Juni', 'Juli', 'Aug.', 'Sept.', 'Okt.', 'Nov.', 'Dez.'],
    monthsNarrow: ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
    daysShort: ['Mo.', 'Di.', 'Mi.', 'Do.', 'Fr.', 'Sa.', 'So.'],
    daysNarrow: ['M', 'D', 'M', 'D', 'F', 'S', 'S'],
    ampm: ['AM', 'PM'],
  },
  fr: {
    monthsFull: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
    monthsShort: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
    monthsNarrow: ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
    daysShort: ['lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.', 'dim.'],
    daysNarrow: ['L', 'M', 'M', 'J', 'V', 'S', 'D'],
    ampm: ['AM', 'PM'],
  },
  es: {
    monthsFull: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
    monthsShort: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
    monthsNarrow: ['E', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    daysShort: ['lun', 'mar', 'mié', 'jue', 'vie', 'sáb', 'dom'],
    daysNarrow: ['L', 'M', 'X', 'J', 'V', 'S', 'D'],
    ampm: [`a.${NBSP}m.`, `p.${NBSP}m.`],
  },
  it: {
    monthsFull: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
    monthsShort: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
    monthsNarrow: ['G', 'F', 'M', 'A', 'M', 'G', 'L', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'],
    daysShort: ['lun', 'mar', 'mer', 'gio', 'ven', 'sab', 'dom'],
    daysNarrow: ['L', 'M', 'M', 'G', 'V', 'S', 'D'],
    ampm: ['AM', 'PM'],
  },
  nl: {
    monthsFull: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
    monthsShort: ['jan.', 'feb.', 'mrt.', 'apr.', 'mei', 'jun.', 'jul.', 'aug.', 'sep.', 'okt.', 'nov.', 'dec.'],
    monthsNarrow: ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag', 'zondag'],
    daysShort: ['ma', 'di', 'wo', 'do', 'vr', 'za', 'zo'],
    daysNarrow: ['M', 'D', 'W', 'D', 'V', 'Z', 'Z'],
    ampm: ['a.m.', 'p.m.'],
  },
  pt: {
    monthsFull: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
    monthsShort: ['jan.', 'fev.', 'mar.', 'abr.', 'mai.', 'jun.', 'jul.', 'ago.', 'set.', 'out.', 'nov.', 'dez.'],
    monthsNarrow: ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'],
    daysFull: ['segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado', 'domingo'],
    daysShort: ['seg.', 'ter.', 'qua.', 'qui.', 'sex.', 'sáb.', 'dom.'],
    daysNarrow: ['S', 'T', 'Q', 'Q', 'S', 'S', 'D'],
    ampm: ['AM', 'PM'],
  },
};

/** Locale.ROOT: java.time's root names are the English ones. */
export const ROOT_LOCALE: DateLocale = { tag: '', ...LANGUAGES['en']! };

const cache = new Map<string, DateLocale>();

/** LocaleUtils.parse: `_` or `-` separated (whichever comes first), at most three parts, `ROOT` for the root. */
export function dateLocale(tag: string): DateLocale {
  if (tag === '') return ROOT_LOCALE;
  const cached = cache.get(tag);
  if (cached !== undefined) return cached;
  const underscore = tag.indexOf('_');
  const dash = tag.indexOf('-');
  const separator = underscore >= 0 && (dash < 0 || underscore < dash) ? '_' : '-';
  const parts = tag.split(separator);
  if (parts.length > 3) throw new DateFormatError(`Locales can have at most 3 parts but got ${parts.length}: [${parts.join(', ')}]`);
  const language = parts.length === 1 && parts[0]!.toUpperCase() === 'ROOT' ? '' : parts[0]!.toLowerCase();
  const names = LANGUAGES[language] ?? LANGUAGES['en']!;
  const locale: DateLocale = { tag, ...names };
  if (cache.size < 100) cache.set(tag, locale);
  return locale;
}
