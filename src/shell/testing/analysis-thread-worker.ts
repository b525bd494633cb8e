/** The analysis worker's code in a Node worker thread (tests): see ../analysis-host.ts. */
import { parentPort } from 'node:worker_threads';
import { type AnalysisReply, type AnalysisRequest, serveShellAnalysis } from '../analysis-host.ts';

const port = parentPort;
if (port) {
  serveShellAnalysis({
    postMessage: (reply: AnalysisReply) => port.postMessage(reply),
    addEventListener: (_type, listener) => port.on('message', (data: AnalysisRequest) => listener({ data })),
  });
}
