/** The workspace's file system as the commands that write files ask it (any scheme: local, remote, virtual). */
import * as vscode from 'vscode';

/** Whether anything (a file or a folder) is at `uri`. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
