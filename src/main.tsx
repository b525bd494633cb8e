import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import './ui/styles/base.css';
import './ui/styles/layout.css';
import './ui/styles/chat.css';
import './ui/styles/markdown.css';
import './ui/styles/highlight.css';
import './ui/styles/tools.css';
import './ui/styles/panels.css';
import './ui/styles/side-tabs.css';
import './ui/styles/sessions.css';
import './ui/styles/dialog.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
