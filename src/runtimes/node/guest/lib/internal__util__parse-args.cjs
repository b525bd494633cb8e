'use strict';
// util.parseArgs: Node's command-line parser (short and long options, `-abc` groups, `--x=v`, `-xv`,
// `--` terminator, `multiple`, `default`, `allowNegative`, `tokens`), with Node's errors in strict mode.

const { codes, validateArray, validateBoolean, validateObject, validateString } = require('internal/errors');

const own = (options, name, key) => (Object.hasOwn(options, name) ? options[name][key] : undefined);

function findLongOptionForShort(short, options) {
  for (const name of Object.keys(options)) if (options[name].short === short) return name;
  return short;
}

const isLoneShortOption = (arg) => arg.length === 2 && arg[0] === '-' && arg[1] !== '-';
const isLoneLongOption = (arg) => arg.length > 2 && arg.startsWith('--') && !arg.includes('=', 3);
const isLongOptionAndValue = (arg) => arg.length > 2 && arg.startsWith('--') && arg.includes('=', 3);
const isOptionValue = (value) => value != null;
const isOptionLikeValue = (value) => value != null && value.length > 1 && value[0] === '-';

function isShortGroupOrValue(arg) {
  return arg.length > 2 && arg[0] === '-' && arg[1] !== '-';
}

function tokenize(args, options) {
  const tokens = [];
  const remaining = [...args];
  let index = -1;
  let groupCount = 0;
  while (remaining.length > 0) {
    const arg = remaining.shift();
    const next = remaining[0];
    if (groupCount > 0) groupCount--;
    else index++;
    if (arg === '--') {
      tokens.push({ kind: 'option-terminator', index });
      for (const rest of remaining) tokens.push({ kind: 'positional', index: ++index, value: rest });
      break;
    }
    if (isLoneShortOption(arg)) {
      const short = arg[1];
      const name = findLongOptionForShort(short, options);
      let value;
      let inlineValue;
      if (own(options, name, 'type') === 'string' && isOptionValue(next)) {
        value = remaining.shift();
        inlineValue = false;
      }
      tokens.push({ kind: 'option', name, rawName: arg, index, value, inlineValue });
      if (value != null) index++;
      continue;
    }
    if (isShortGroupOrValue(arg)) {
      const firstName = findLongOptionForShort(arg[1], options);
      if (own(options, firstName, 'type') === 'string') {
        tokens.push({
          kind: 'option',
          name: firstName,
          rawName: `-${arg[1]}`,
          index,
          value: arg.slice(2),
          inlineValue: true,
        });
        continue;
      }
      const expanded = [];
      for (let i = 1; i < arg.length; i++) {
        const short = arg[i];
        const name = findLongOptionForShort(short, options);
        if (own(options, name, 'type') !== 'string' || i === arg.length - 1) expanded.push(`-${short}`);
        else {
          expanded.push(`-${short}${arg.slice(i + 1)}`);
          break;
        }
      }
      remaining.unshift(...expanded);
      groupCount = expanded.length;
      continue;
    }
    if (isLoneLongOption(arg)) {
      const name = arg.slice(2);
      let value;
      let inlineValue;
      if (own(options, name, 'type') === 'string' && isOptionValue(next)) {
        value = remaining.shift();
        inlineValue = false;
      }
      tokens.push({ kind: 'option', name, rawName: arg, index, value, inlineValue });
      if (value != null) index++;
      continue;
    }
    if (isLongOptionAndValue(arg)) {
      const eq = arg.indexOf('=');
      tokens.push({
        kind: 'option',
        name: arg.slice(2, eq),
        rawName: arg.slice(0, eq),
        index,
        value: arg.slice(eq + 1),
        inlineValue: true,
      });
      continue;
    }
    tokens.push({ kind: 'positional', index, value: arg });
  }
  return tokens;
}

function checkOptionUsage(options, allowPositionals, token) {
  if (!Object.hasOwn(options, token.name))
    throw codes.ERR_PARSE_ARGS_UNKNOWN_OPTION(token.rawName, allowPositionals);
  const short = own(options, token.name, 'short');
  const shortAndLong = `${short ? `-${short}, ` : ''}--${token.name}`;
  const type = own(options, token.name, 'type');
  if (type === 'string' && typeof token.value !== 'string') {
    throw codes.ERR_PARSE_ARGS_INVALID_OPTION_VALUE(`Option '${shortAndLong} <value>' argument missing`);
  }
  if (type === 'boolean' && token.value != null) {
    throw codes.ERR_PARSE_ARGS_INVALID_OPTION_VALUE(`Option '${shortAndLong}' does not take an argument`);
  }
}

function checkOptionLikeValue(token) {
  if (!token.inlineValue && isOptionLikeValue(token.value)) {
    const example = token.rawName.startsWith('--')
      ? `'${token.rawName}=-XYZ'`
      : `'--${token.name}=-XYZ' or '${token.rawName}-XYZ'`;
    throw codes.ERR_PARSE_ARGS_INVALID_OPTION_VALUE(
      `Option '${token.rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${token.rawName}'?\nTo specify an option argument starting with a dash use ${example}.`,
    );
  }
}

function storeOption(name, value, options, values) {
  if (name === '__proto__') return;
  const stored = value ?? true;
  if (own(options, name, 'multiple')) {
    if (values[name] === undefined) values[name] = [stored];
    else values[name].push(stored);
  } else {
    values[name] = stored;
  }
}

function validateOptions(options) {
  for (const [name, option] of Object.entries(options)) {
    validateObject(option, `options.${name}`);
    if (option.type !== 'string' && option.type !== 'boolean') {
      throw codes.ERR_INVALID_ARG_TYPE(`options.${name}.type`, "('string|boolean')", option.type);
    }
    if (Object.hasOwn(option, 'short')) {
      validateString(option.short, `options.${name}.short`);
      if (option.short.length !== 1) {
        throw codes.ERR_INVALID_ARG_VALUE(
          `options.${name}.short`,
          option.short,
          'must be a single character',
        );
      }
    }
    const multiple = Object.hasOwn(option, 'multiple') ? option.multiple : false;
    if (Object.hasOwn(option, 'multiple')) validateBoolean(multiple, `options.${name}.multiple`);
    if (Object.hasOwn(option, 'default')) {
      const value = option.default;
      const check = option.type === 'string' ? validateString : validateBoolean;
      if (multiple) {
        validateArray(value, `options.${name}.default`);
        for (const [i, item] of value.entries()) check(item, `options.${name}.default[${i}]`);
      } else {
        check(value, `options.${name}.default`);
      }
    }
  }
}

function defaultArgs() {
  const argv = globalThis.process?.argv ?? [];
  const execArgv = globalThis.process?.execArgv ?? [];
  const evaluating = execArgv.some((arg) => ['-e', '--eval', '-p', '--print'].includes(arg));
  return argv.slice(evaluating ? 1 : 2);
}

/** util.parseArgs(config). Throws Node's ERR_PARSE_ARGS_* errors for bad input in strict mode. */
function parseArgs(config = { __proto__: null }) {
  validateObject(config, 'config');
  const args = config.args ?? defaultArgs();
  const strict = config.strict ?? true;
  const allowPositionals = config.allowPositionals ?? !strict;
  const returnTokens = config.tokens ?? false;
  const allowNegative = config.allowNegative ?? false;
  const options = config.options ?? { __proto__: null };
  validateArray(args, 'args');
  validateBoolean(strict, 'strict');
  validateBoolean(allowPositionals, 'allowPositionals');
  validateBoolean(returnTokens, 'tokens');
  validateBoolean(allowNegative, 'allowNegative');
  validateObject(options, 'options');
  validateOptions(options);

  const result = { values: { __proto__: null }, positionals: [] };
  const tokens = tokenize(args, options);
  for (const token of tokens) {
    if (token.kind === 'option') {
      if (allowNegative && token.name.startsWith('no-') && token.value === undefined) {
        const positive = token.name.slice(3);
        if (own(options, positive, 'type') === 'boolean') {
          if (strict) checkOptionUsage(options, allowPositionals, { ...token, name: positive });
          storeOption(positive, false, options, result.values);
          continue;
        }
      }
      if (strict) {
        checkOptionUsage(options, allowPositionals, token);
        checkOptionLikeValue(token);
      }
      storeOption(token.name, token.value, options, result.values);
    } else if (token.kind === 'positional') {
      if (!allowPositionals) throw codes.ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL(token.value);
      result.positionals.push(token.value);
    }
  }
  for (const [name, option] of Object.entries(options)) {
    if (Object.hasOwn(option, 'default') && result.values[name] === undefined)
      result.values[name] = option.default;
  }
  if (returnTokens) result.tokens = tokens;
  return result;
}

module.exports = { parseArgs };
