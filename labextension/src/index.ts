/**
 * paef-jupyter front end: lets the kernel rewrite a notebook cell, and makes reports
 * navigable (see navigate.ts).
 *
 * The kernel opens a comm on `paef_jupyter.cell_edit` (protocol v1, see DESIGN.md); a page
 * (re)loaded on a kernel that has it already takes it up (`reattach`).
 * Edits go through the cell's shared model, so they land in the editor's undo history
 * (Ctrl+Z) and in every view of the document, exactly as if the user had typed them.
 */
import {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { Kernel, KernelMessage } from '@jupyterlab/services';

import {
  COMM_TARGET,
  IEditableSource,
  PROTOCOL_VERSION,
  ReplaceCellRequest,
  ISetMetadata,
  ReplaceStatus,
  applyReplacement,
  notebookState,
  parseRequest
} from './protocol';
import { installNavigation } from './navigate';
import { preloadPlotly } from './plotly';
import { IOutputList, updateStaticCopies } from './staticcopy';

/** Kernels whose comm target is already registered (one registration per connection). */
const registered = new WeakSet<Kernel.IKernelConnection>();

/** The cell with this id in any open notebook whose session runs on this kernel. */
function findCell(
  tracker: INotebookTracker,
  kernelId: string,
  cellId: string
): IEditableSource | null {
  let found: IEditableSource | null = null;
  tracker.forEach((panel: NotebookPanel) => {
    if (found === null && panel.sessionContext.session?.kernel?.id === kernelId) {
      const cells = panel.content.model?.sharedModel.cells ?? [];
      found = cells.find(cell => cell.id === cellId) ?? null;
    }
  });
  return found;
}

/** The notebooks open on this kernel. */
function panelsOn(tracker: INotebookTracker, kernelId: string): NotebookPanel[] {
  const panels: NotebookPanel[] = [];
  tracker.forEach(panel => {
    if (panel.sessionContext.session?.kernel?.id === kernelId && panel.content.model) {
      panels.push(panel);
    }
  });
  return panels;
}

/** The remembered dismissals and silenced rules of the notebook(s) on this kernel. */
function stateOf(tracker: INotebookTracker, kernelId: string) {
  const panel = panelsOn(tracker, kernelId)[0];
  const shared = panel?.content.model?.sharedModel;
  if (!shared) {
    return notebookState(undefined, []);
  }
  return notebookState(
    shared.getMetadata('paef'),
    shared.cells.map(cell => ({ id: cell.id, meta: cell.getMetadata('paef') }))
  );
}

/** The output lists of every code cell in the notebooks on this kernel. */
function outputListsOn(tracker: INotebookTracker, kernelId: string): IOutputList[] {
  const lists: IOutputList[] = [];
  for (const panel of panelsOn(tracker, kernelId)) {
    const cells = panel.content.model!.cells;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells.get(i);
      if (cell.type === 'code') {
        lists.push((cell as unknown as { outputs: IOutputList }).outputs);
      }
    }
  }
  return lists;
}

function setMetadata(tracker: INotebookTracker, kernelId: string, request: ISetMetadata): void {
  const empty = Object.keys(request.value).length === 0;
  for (const panel of panelsOn(tracker, kernelId)) {
    const shared = panel.content.model!.sharedModel;
    const target =
      request.cell_id === null ? shared : shared.cells.find(cell => cell.id === request.cell_id);
    if (!target) {
      continue;
    }
    if (empty) {
      target.deleteMetadata('paef');
    } else {
      target.setMetadata('paef', request.value);
    }
  }
}

function replaceCell(
  tracker: INotebookTracker,
  kernelId: string,
  request: ReplaceCellRequest
): ReplaceStatus {
  const cell = findCell(tracker, kernelId, request.cell_id);
  if (!cell) {
    return 'not_found';
  }
  return applyReplacement(cell, request.expected_source, request.new_source);
}

function onMessage(
  tracker: INotebookTracker,
  kernel: Kernel.IKernelConnection,
  comm: Kernel.IComm,
  data: unknown
): void {
  const request = parseRequest(data);
  if (request === null) {
    console.warn(`paef-jupyter: ignoring malformed message on ${COMM_TARGET}`, data);
  } else if (request.type === 'hello') {
    comm.send({ type: 'ready', version: PROTOCOL_VERSION });
    comm.send(stateOf(tracker, kernel.id));
    preloadPlotly(); // paef was just loaded in this kernel: its reports will need plotly.js
  } else if (request.type === 'set_metadata') {
    setMetadata(tracker, kernel.id, request);
  } else {
    comm.send({
      type: 'result',
      request_id: request.request_id,
      status: replaceCell(tracker, kernel.id, request)
    });
  }
}

/**
 * A page reloaded on a kernel that had loaded paef never saw its comm's open message, and
 * would drop every message on it (the kernel's Apply timed out, metadata writes were lost).
 * The comm is taken up by id, as ipywidgets does with its models after a reload, and the
 * kernel's hello answered again (`ready`, then the notebook's state), unasked: the kernel's
 * requests then reach this page (see paef_jupyter/ui/bridge.py).
 */
async function reattach(tracker: INotebookTracker, kernel: Kernel.IKernelConnection): Promise<void> {
  let reply: KernelMessage.ICommInfoReplyMsg;
  try {
    reply = await kernel.requestCommInfo({ target_name: COMM_TARGET });
  } catch {
    return; // the kernel went away or restarts: a new one sends its hello itself
  }
  const content = reply.content;
  for (const commId of content.status === 'ok' ? Object.keys(content.comms) : []) {
    if (kernel.isDisposed || kernel.hasComm(commId)) {
      continue; // this page opened it itself (its open message came meanwhile)
    }
    const comm = kernel.createComm(COMM_TARGET, commId);
    comm.onMsg = msg => onMessage(tracker, kernel, comm, msg.content.data);
    onMessage(tracker, kernel, comm, { type: 'hello', version: PROTOCOL_VERSION });
  }
}

function registerTarget(
  tracker: INotebookTracker,
  kernel: Kernel.IKernelConnection | null | undefined
): void {
  if (!kernel || registered.has(kernel)) {
    return;
  }
  registered.add(kernel);
  kernel.iopubMessage.connect((_, msg) => {
    if (msg.header.msg_type === 'update_display_data') {
      const content = (msg as KernelMessage.IUpdateDisplayDataMsg).content;
      updateStaticCopies(outputListsOn(tracker, kernel.id), content);
    }
  });
  kernel.registerCommTarget(
    COMM_TARGET,
    (comm: Kernel.IComm, open: KernelMessage.ICommOpenMsg) => {
      comm.onMsg = msg => onMessage(tracker, kernel, comm, msg.content.data);
      // The kernel may carry its hello in the open message itself.
      if (Object.keys(open.content.data ?? {}).length > 0) {
        onMessage(tracker, kernel, comm, open.content.data);
      }
    }
  );
  void reattach(tracker, kernel);
}

function watchPanel(tracker: INotebookTracker, panel: NotebookPanel): void {
  const context = panel.sessionContext;
  context.kernelChanged.connect((_, change) =>
    registerTarget(tracker, change.newValue)
  );
  registerTarget(tracker, context.session?.kernel);
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'paef-jupyter:cell-edit',
  description: 'Applies paef-jupyter rewrites to notebook cells on request of the kernel.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker) => {
    tracker.forEach(panel => watchPanel(tracker, panel));
    tracker.widgetAdded.connect((_, panel) => watchPanel(tracker, panel));
    installNavigation(tracker);
  }
};

export default plugin;
