// An esbuild plugin for the bundles that hold the WebSocket client (esbuild.js: dist/ws.js and the
// command line's). The `ws` package opens its upgrade with http.request and https.request, which VS
// Code's extension host reroutes by its own proxy settings (http.proxySupport "override" replaces the
// agent it is given), so the route core/net/network.ts decided would not hold in the editor. In these
// bundles, ws's `http` and `https` are a module whose request is node:http's ClientRequest over the
// agent it is given, which the host does not reroute: the same way node-http-sender.ts sends.
'use strict';

/** The one file of ws that opens client connections. */
const WS_CLIENT = /[\\/]node_modules[\\/]ws[\\/]lib[\\/]websocket\.js$/;

/** node:http's ClientRequest over the agent given (whose protocol is the request's); without one, the module's own request. */
const contents = (module) => `'use strict';
const { ClientRequest } = require('node:http');
const own = require('node:${module}');
exports.request = (options, callback) =>
  options.agent ? new ClientRequest({ ...options, protocol: options.agent.protocol }, callback) : own.request(options, callback);
`;

/** @type {import('esbuild').Plugin} */
const wsOwnRequest = {
  name: 'ws-own-request',
  setup(build) {
    build.onResolve({ filter: /^https?$/ }, (args) =>
      WS_CLIENT.test(args.importer) ? { path: args.path, namespace: 'ws-own-request' } : undefined,
    );
    build.onLoad({ filter: /^https?$/, namespace: 'ws-own-request' }, (args) => ({
      contents: contents(args.path),
      loader: 'js',
    }));
  },
};

module.exports = { wsOwnRequest };
