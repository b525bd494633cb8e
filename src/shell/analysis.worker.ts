/**
 * Bash command analysis off the page's thread (see ./analysis-host.ts): loads just-bash's parser here
 * and answers each request with the analysis.
 */
import { type AnalysisReply, type AnalysisRequest, serveShellAnalysis } from './analysis-host.ts';

const scope = self as unknown as {
  postMessage(message: AnalysisReply): void;
  addEventListener(type: 'message', listener: (event: { data: AnalysisRequest }) => void): void;
};

serveShellAnalysis(scope);
