/**
 * The editor's route, from the network settings users set for every extension (docs/editor.md,
 * "Proxies and certificates"): http.proxy, http.noProxy, http.proxyAuthorization and
 * http.proxySupport (`off`: direct), over the proxy variables VS Code itself was started with.
 * Certificates: no `ca` is given, so VS Code's own trust applies (its system certificates,
 * http.systemCertificates, and NODE_EXTRA_CA_CERTS). http.proxyStrictSSL never turns a check off:
 * TradeReq has no such switch for a signed request.
 */
import * as vscode from 'vscode';
import type { NetworkSettings } from '../core/net/proxy';

export function editorNetworkSettings(
  config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration('http'),
  env: NodeJS.ProcessEnv = process.env,
): NetworkSettings {
  if (config.get<string>('proxySupport') === 'off') return {};
  const setting = text(config.get<unknown>('proxy'));
  const all = variable(env, 'all_proxy');
  const noProxy = config.get<unknown>('noProxy');
  return {
    httpsProxy: setting ?? variable(env, 'https_proxy') ?? all,
    httpProxy: setting ?? variable(env, 'http_proxy') ?? all,
    noProxy: [
      ...(Array.isArray(noProxy) ? noProxy.filter((e) => typeof e === 'string') : []),
      variable(env, 'no_proxy'),
    ]
      .filter(Boolean)
      .join(','),
    proxyAuthorization: text(config.get<unknown>('proxyAuthorization')),
  };
}

/** Whether a change of configuration changes the route. */
export function affectsNetwork(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('http');
}

function variable(env: NodeJS.ProcessEnv, lower: string): string | undefined {
  return text(env[lower]) ?? text(env[lower.toUpperCase()]);
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
