import { bootstrapApplication } from '@angular/platform-browser';
import { AppComponent } from './app/app.component';
import { appConfig } from './app/app.config';
import { prefetchDiagramLayout } from './app/features/diagram-canvas/early-diagram-layout';
import { startEarlyLayoutWorkers } from './app/features/diagram-canvas/early-layout-worker';

// Before Angular starts: on a diagram page, the server's layout of the diagram is requested and ELK compiles in the
// layout workers (for collapses, or a diagram without a server layout) while the app boots (see the modules).
prefetchDiagramLayout(location.pathname, location.search);
startEarlyLayoutWorkers(location.pathname);

bootstrapApplication(AppComponent, appConfig).catch((error: unknown) => console.error(error));
