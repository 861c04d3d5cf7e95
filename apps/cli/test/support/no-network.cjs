// Preloaded with `node --require` into the CLI child process: records every attempt to open a connection or
// resolve a host name to $NO_NETWORK_LOG and fails it the way a dead network would (asynchronously). Proves
// --dry-run touches no network, whatever library (oclif, jsdom, mermaid) might try.
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const log = process.env.NO_NETWORK_LOG;
const blocked = (code) => Object.assign(new Error(`network access blocked (${code})`), { code });

net.Socket.prototype.connect = function connect(...args) {
  fs.appendFileSync(log, `connect ${JSON.stringify(args[0])}\n`);
  process.nextTick(() => this.destroy(blocked('ECONNREFUSED')));
  return this;
};
dns.lookup = function lookup(host, options, callback) {
  fs.appendFileSync(log, `dns.lookup ${host}\n`);
  process.nextTick(typeof options === 'function' ? options : callback, blocked('ENOTFOUND'));
};
dns.promises.lookup = async (host) => {
  fs.appendFileSync(log, `dns.promises.lookup ${host}\n`);
  throw blocked('ENOTFOUND');
};
