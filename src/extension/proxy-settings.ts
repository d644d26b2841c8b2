/**
 * The editor's route, from the network settings users set for every extension (docs/editor.md,
 * "Proxies and certificates"): http.proxy, http.noProxy, http.proxyAuthorization and
 * http.proxySupport (`off`: direct), over the proxy variables VS Code itself was started with.
 * Certificates: no `ca` is given, so VS Code's own trust applies (its system certificates,
 * http.systemCertificates, and NODE_EXTRA_CA_CERTS). http.proxyStrictSSL never turns a check off:
 * TradeReq has no such switch for a signed request.
 */
import * as vscode from 'vscode';
import { proxyVariables, type NetworkSettings } from '../core/net/proxy';

export function editorNetworkSettings(
  config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration('http'),
  env: NodeJS.ProcessEnv = process.env,
): NetworkSettings {
  if (config.get<string>('proxySupport') === 'off') return {};
  const setting = text(config.get<unknown>('proxy'));
  const variables = proxyVariables(env);
  const noProxy = config.get<unknown>('noProxy');
  const listed = Array.isArray(noProxy) ? noProxy.filter((e): e is string => typeof e === 'string') : [];
  return {
    httpsProxy: setting ?? variables.httpsProxy,
    httpProxy: setting ?? variables.httpProxy,
    noProxy: [...listed, variables.noProxy].filter(Boolean).join(','),
    proxyAuthorization: text(config.get<unknown>('proxyAuthorization')),
  };
}

/** Whether a change of configuration changes the route. */
export function affectsNetwork(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('http');
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
