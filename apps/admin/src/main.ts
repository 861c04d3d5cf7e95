import { bootstrapApplication } from '@angular/platform-browser';
import { AppComponent } from './app/app.component';
import { appConfig } from './app/app.config';
import { startEarlyLayoutWorkers } from './app/features/diagram-canvas/early-layout-worker';

// Before Angular starts: on a diagram page, ELK compiles in the layout workers while the app boots (see the module).
startEarlyLayoutWorkers(location.pathname);

bootstrapApplication(AppComponent, appConfig).catch((error: unknown) => console.error(error));
